from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepFlattenFieldsAction")



@_attrs_define
class ActionStepFlattenFieldsAction:
    """ Paints every form field's appearance into its page (generating missing appearances first) and removes the fields and
    the AcroForm (and XFA). Push buttons are painted only with paintButtons (only those showing an image with
    paintOnlyImageButtons); fields without the print flag only with paintNonPrintableFields; hidden fields never.

        Attributes:
            paint_buttons (bool | Unset): Paint push buttons (default: they are dropped) Default: False.
            paint_only_image_buttons (bool | Unset): With paintButtons: only the push buttons that show an image Default:
                False.
            paint_non_printable_fields (bool | Unset): Also paint fields without the print flag (default: they are dropped)
                Default: False.
     """

    paint_buttons: bool | Unset = False
    paint_only_image_buttons: bool | Unset = False
    paint_non_printable_fields: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        paint_buttons = self.paint_buttons

        paint_only_image_buttons = self.paint_only_image_buttons

        paint_non_printable_fields = self.paint_non_printable_fields


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if paint_buttons is not UNSET:
            field_dict["paintButtons"] = paint_buttons
        if paint_only_image_buttons is not UNSET:
            field_dict["paintOnlyImageButtons"] = paint_only_image_buttons
        if paint_non_printable_fields is not UNSET:
            field_dict["paintNonPrintableFields"] = paint_non_printable_fields

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        paint_buttons = d.pop("paintButtons", UNSET)

        paint_only_image_buttons = d.pop("paintOnlyImageButtons", UNSET)

        paint_non_printable_fields = d.pop("paintNonPrintableFields", UNSET)

        action_step_flatten_fields_action = cls(
            paint_buttons=paint_buttons,
            paint_only_image_buttons=paint_only_image_buttons,
            paint_non_printable_fields=paint_non_printable_fields,
        )

        return action_step_flatten_fields_action

