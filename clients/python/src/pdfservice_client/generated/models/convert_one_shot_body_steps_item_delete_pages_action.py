from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_delete_pages_action_naming_mode import ConvertOneShotBodyStepsItemDeletePagesActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemDeletePagesAction")



@_attrs_define
class ConvertOneShotBodyStepsItemDeletePagesAction:
    """ Deletes the pages of pageRange (not all of them). Outline items, named destinations and links that pointed at them
    are removed, and so are their form fields.

        Attributes:
            page_range (str): The pages to delete, 1-based, as in a print dialog: "1-3,7,10-"; not empty.
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemDeletePagesActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemDeletePagesActionNamingMode.VALUE_0.
     """

    page_range: str
    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemDeletePagesActionNamingMode | Unset = ConvertOneShotBodyStepsItemDeletePagesActionNamingMode.VALUE_0





    def to_dict(self) -> dict[str, Any]:
        page_range = self.page_range

        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pageRange": page_range,
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page_range = d.pop("pageRange")

        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemDeletePagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemDeletePagesActionNamingMode(_naming_mode)




        convert_one_shot_body_steps_item_delete_pages_action = cls(
            page_range=page_range,
            save_path=save_path,
            naming_mode=naming_mode,
        )

        return convert_one_shot_body_steps_item_delete_pages_action

