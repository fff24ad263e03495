from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_flatten_annotations_action_naming_mode import ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemFlattenAnnotationsAction")



@_attrs_define
class ConvertOneShotBodyStepsItemFlattenAnnotationsAction:
    """ Paints every annotation other than form widgets and links into its page (generating missing appearances first) and
    removes it; popups are dropped, hidden annotations are not painted, annotations without the print flag only with
    paintNonPrintableAnnots. Links stay unless keepLinks is false.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode | Unset): When savePath exists: 0
                fail with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode.VALUE_0.
            paint_non_printable_annots (bool | Unset): Also paint annotations without the print flag (default: they are
                dropped) Default: False.
            keep_links (bool | Unset): Keep link annotations, which draw nothing but navigate (default); false removes them
                too Default: True.
     """

    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode | Unset = ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode.VALUE_0
    paint_non_printable_annots: bool | Unset = False
    keep_links: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        paint_non_printable_annots = self.paint_non_printable_annots

        keep_links = self.keep_links


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if paint_non_printable_annots is not UNSET:
            field_dict["paintNonPrintableAnnots"] = paint_non_printable_annots
        if keep_links is not UNSET:
            field_dict["keepLinks"] = keep_links

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemFlattenAnnotationsActionNamingMode(_naming_mode)




        paint_non_printable_annots = d.pop("paintNonPrintableAnnots", UNSET)

        keep_links = d.pop("keepLinks", UNSET)

        convert_one_shot_body_steps_item_flatten_annotations_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
            paint_non_printable_annots=paint_non_printable_annots,
            keep_links=keep_links,
        )

        return convert_one_shot_body_steps_item_flatten_annotations_action

