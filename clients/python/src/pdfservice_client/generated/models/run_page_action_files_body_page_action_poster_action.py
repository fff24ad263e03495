from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_page_action_files_body_page_action_poster_action_naming_mode import RunPageActionFilesBodyPageActionPosterActionNamingMode
from ..models.run_page_action_files_body_page_action_poster_action_orientation import RunPageActionFilesBodyPageActionPosterActionOrientation
from ..models.run_page_action_files_body_page_action_poster_action_paper_size import RunPageActionFilesBodyPageActionPosterActionPaperSize
from ..types import UNSET, Unset






T = TypeVar("T", bound="RunPageActionFilesBodyPageActionPosterAction")



@_attrs_define
class RunPageActionFilesBodyPageActionPosterAction:
    """ Cuts each page, enlarged by scale (default 1), into tiles of the paper (default A4, turned so fewer tiles are
    needed), left to right and top to bottom, neighbouring tiles overlapping by overlap points.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunPageActionFilesBodyPageActionPosterActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunPageActionFilesBodyPageActionPosterActionNamingMode.VALUE_0.
            overlap (float | Unset): Points each tile repeats of its neighbours (default 0)
            scale (float | Unset): Enlargement of the page before it is cut (default 1)
            paper_size (RunPageActionFilesBodyPageActionPosterActionPaperSize | Unset): A named paper size; or give width
                and height
            width (float | Unset): Paper width (points, 1/72 inch)
            height (float | Unset): Paper height (points, 1/72 inch)
            orientation (RunPageActionFilesBodyPageActionPosterActionOrientation | Unset): How the paper is turned; auto
                (the default) chooses as the action says
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    save_path: str | Unset = UNSET
    naming_mode: RunPageActionFilesBodyPageActionPosterActionNamingMode | Unset = RunPageActionFilesBodyPageActionPosterActionNamingMode.VALUE_0
    overlap: float | Unset = UNSET
    scale: float | Unset = UNSET
    paper_size: RunPageActionFilesBodyPageActionPosterActionPaperSize | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    orientation: RunPageActionFilesBodyPageActionPosterActionOrientation | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        overlap = self.overlap

        scale = self.scale

        paper_size: str | Unset = UNSET
        if not isinstance(self.paper_size, Unset):
            paper_size = self.paper_size.value


        width = self.width

        height = self.height

        orientation: str | Unset = UNSET
        if not isinstance(self.orientation, Unset):
            orientation = self.orientation.value


        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if overlap is not UNSET:
            field_dict["overlap"] = overlap
        if scale is not UNSET:
            field_dict["scale"] = scale
        if paper_size is not UNSET:
            field_dict["paperSize"] = paper_size
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if orientation is not UNSET:
            field_dict["orientation"] = orientation
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunPageActionFilesBodyPageActionPosterActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunPageActionFilesBodyPageActionPosterActionNamingMode(_naming_mode)




        overlap = d.pop("overlap", UNSET)

        scale = d.pop("scale", UNSET)

        _paper_size = d.pop("paperSize", UNSET)
        paper_size: RunPageActionFilesBodyPageActionPosterActionPaperSize | Unset
        if isinstance(_paper_size,  Unset):
            paper_size = UNSET
        else:
            paper_size = RunPageActionFilesBodyPageActionPosterActionPaperSize(_paper_size)




        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        _orientation = d.pop("orientation", UNSET)
        orientation: RunPageActionFilesBodyPageActionPosterActionOrientation | Unset
        if isinstance(_orientation,  Unset):
            orientation = UNSET
        else:
            orientation = RunPageActionFilesBodyPageActionPosterActionOrientation(_orientation)




        page_range = d.pop("pageRange", UNSET)

        run_page_action_files_body_page_action_poster_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            overlap=overlap,
            scale=scale,
            paper_size=paper_size,
            width=width,
            height=height,
            orientation=orientation,
            page_range=page_range,
        )

        return run_page_action_files_body_page_action_poster_action

