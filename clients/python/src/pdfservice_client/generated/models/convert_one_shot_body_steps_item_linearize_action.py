from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.convert_one_shot_body_steps_item_linearize_action_naming_mode import ConvertOneShotBodyStepsItemLinearizeActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConvertOneShotBodyStepsItemLinearizeAction")



@_attrs_define
class ConvertOneShotBodyStepsItemLinearizeAction:
    """ Writes the document linearized ("fast web view", ISO 32000-1 Annex F) with qpdf; content, object streams and
    encryption are kept (an encrypted document needs its password, and a user password only when its permissions allow
    changes). A signed document is refused (409 DOCUMENT_SIGNED). The answer's report gives the sizes before and after.
    See docs/optimize.md.

        Attributes:
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (ConvertOneShotBodyStepsItemLinearizeActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                ConvertOneShotBodyStepsItemLinearizeActionNamingMode.VALUE_0.
     """

    save_path: str | Unset = UNSET
    naming_mode: ConvertOneShotBodyStepsItemLinearizeActionNamingMode | Unset = ConvertOneShotBodyStepsItemLinearizeActionNamingMode.VALUE_0





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: ConvertOneShotBodyStepsItemLinearizeActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = ConvertOneShotBodyStepsItemLinearizeActionNamingMode(_naming_mode)




        convert_one_shot_body_steps_item_linearize_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
        )

        return convert_one_shot_body_steps_item_linearize_action

