from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_rotate_pages_action_naming_mode import ConvertOneShotBodyStepsItemRotatePagesActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemRotatePagesAction")



@_attrs_define
class ConvertOneShotBodyStepsItemRotatePagesAction:
    """ Turns the pages of pageRange (default: all) clockwise by rotation degrees, a multiple of 90 (negative turns counter-
    clockwise); /Rotate is set, the content is not rewritten.

        Attributes:
            rotation (int): Degrees clockwise, a multiple of 90
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemRotatePagesActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemRotatePagesActionNamingMode.VALUE_0.
            page_range (str | Unset): The pages to turn (default: every page), 1-based, as in a print dialog: "1-3,7,10-";
                not empty.
     """

    rotation: int
    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemRotatePagesActionNamingMode | Unset = ConvertOneShotBodyStepsItemRotatePagesActionNamingMode.VALUE_0
    page_range: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rotation = self.rotation

        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        page_range = self.page_range


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rotation": rotation,
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rotation = d.pop("rotation")

        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemRotatePagesActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemRotatePagesActionNamingMode(_naming_mode)




        page_range = d.pop("pageRange", UNSET)

        convert_one_shot_body_steps_item_rotate_pages_action = cls(
            rotation=rotation,
            save_path=save_path,
            naming_mode=naming_mode,
            page_range=page_range,
        )

        return convert_one_shot_body_steps_item_rotate_pages_action

