from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_page_action_files_body_action_booklet_action_binding import RunPageActionFilesBodyActionBookletActionBinding
from ..models.run_page_action_files_body_action_booklet_action_naming_mode import RunPageActionFilesBodyActionBookletActionNamingMode
from ..models.run_page_action_files_body_action_booklet_action_orientation import RunPageActionFilesBodyActionBookletActionOrientation
from ..models.run_page_action_files_body_action_booklet_action_paper_size import RunPageActionFilesBodyActionBookletActionPaperSize
from ..types import UNSET, Unset






T = TypeVar("T", bound="RunPageActionFilesBodyActionBookletAction")



@_attrs_define
class RunPageActionFilesBodyActionBookletAction:
    """ Saddle-stitch booklet: pages padded with blank pages to a multiple of 4, two on each side of a landscape sheet,
    sides in duplex printing order (front, back; flip on the short edge). Folded in the middle, the sheets read in
    order. The sheet is the paper given (landscape) or twice the first page's width.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunPageActionFilesBodyActionBookletActionNamingMode | Unset): When savePath exists: 0 fail with 409
                (default), 1 overwrite, 2 append a random number to the name. Default:
                RunPageActionFilesBodyActionBookletActionNamingMode.VALUE_0.
            binding (RunPageActionFilesBodyActionBookletActionBinding | Unset): Where the fold is when the booklet is read:
                left (default, left-to-right scripts) or right
            border (bool | Unset): Draw a thin line around each cell (default false)
            margin (float | Unset): Space kept free around each page on the sheet (points; default 0)
            paper_size (RunPageActionFilesBodyActionBookletActionPaperSize | Unset): A named paper size; or give width and
                height
            width (float | Unset): Paper width (points, 1/72 inch)
            height (float | Unset): Paper height (points, 1/72 inch)
            orientation (RunPageActionFilesBodyActionBookletActionOrientation | Unset): How the paper is turned; auto (the
                default) chooses as the action says
            page_range (str | Unset): The pages to lay out (default: every page), 1-based, as in a print dialog:
                "1-3,7,10-"; not empty.
     """

    save_path: str | Unset = UNSET
    naming_mode: RunPageActionFilesBodyActionBookletActionNamingMode | Unset = RunPageActionFilesBodyActionBookletActionNamingMode.VALUE_0
    binding: RunPageActionFilesBodyActionBookletActionBinding | Unset = UNSET
    border: bool | Unset = UNSET
    margin: float | Unset = UNSET
    paper_size: RunPageActionFilesBodyActionBookletActionPaperSize | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    orientation: RunPageActionFilesBodyActionBookletActionOrientation | Unset = UNSET
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        binding: str | Unset = UNSET
        if not isinstance(self.binding, Unset):
            binding = self.binding.value


        border = self.border

        margin = self.margin

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
        if binding is not UNSET:
            field_dict["binding"] = binding
        if border is not UNSET:
            field_dict["border"] = border
        if margin is not UNSET:
            field_dict["margin"] = margin
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
        naming_mode: RunPageActionFilesBodyActionBookletActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunPageActionFilesBodyActionBookletActionNamingMode(_naming_mode)




        _binding = d.pop("binding", UNSET)
        binding: RunPageActionFilesBodyActionBookletActionBinding | Unset
        if isinstance(_binding,  Unset):
            binding = UNSET
        else:
            binding = RunPageActionFilesBodyActionBookletActionBinding(_binding)




        border = d.pop("border", UNSET)

        margin = d.pop("margin", UNSET)

        _paper_size = d.pop("paperSize", UNSET)
        paper_size: RunPageActionFilesBodyActionBookletActionPaperSize | Unset
        if isinstance(_paper_size,  Unset):
            paper_size = UNSET
        else:
            paper_size = RunPageActionFilesBodyActionBookletActionPaperSize(_paper_size)




        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        _orientation = d.pop("orientation", UNSET)
        orientation: RunPageActionFilesBodyActionBookletActionOrientation | Unset
        if isinstance(_orientation,  Unset):
            orientation = UNSET
        else:
            orientation = RunPageActionFilesBodyActionBookletActionOrientation(_orientation)




        page_range = d.pop("pageRange", UNSET)

        run_page_action_files_body_action_booklet_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            binding=binding,
            border=border,
            margin=margin,
            paper_size=paper_size,
            width=width,
            height=height,
            orientation=orientation,
            page_range=page_range,
        )

        return run_page_action_files_body_action_booklet_action

