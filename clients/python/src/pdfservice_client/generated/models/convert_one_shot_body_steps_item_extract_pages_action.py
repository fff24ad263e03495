from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_extract_pages_action_naming_mode import ConvertOneShotBodyStepsItemExtractPagesActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemExtractPagesAction")



@_attrs_define
class ConvertOneShotBodyStepsItemExtractPagesAction:
    """ Writes a new document (savePath, required) with the pages of pageRange in that order, with their annotations and
    form fields; the source is unchanged.

        Attributes:
            save_path (str): Path of the output document ("folder/name.pdf"); absent: the original is replaced. Folders are
                created.
            page_range (str): The pages to extract, 1-based, as in a print dialog: "1-3,7,10-"; not empty.
            naming_mode (ConvertOneShotBodyStepsItemExtractPagesActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemExtractPagesActionNamingMode.VALUE_0.
     """

    save_path: str
    page_range: str
    naming_mode: ConvertOneShotBodyStepsItemExtractPagesActionNamingMode | Unset = ConvertOneShotBodyStepsItemExtractPagesActionNamingMode.VALUE_0





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        page_range = self.page_range

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "savePath": save_path,
            "pageRange": page_range,
        })
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath")

        page_range = d.pop("pageRange")

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemExtractPagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemExtractPagesActionNamingMode(_naming_mode)




        convert_one_shot_body_steps_item_extract_pages_action = cls(
            save_path=save_path,
            page_range=page_range,
            naming_mode=naming_mode,
        )

        return convert_one_shot_body_steps_item_extract_pages_action

