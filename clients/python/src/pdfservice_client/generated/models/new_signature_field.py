from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.new_signature_field_widget_item import NewSignatureFieldWidgetItem





T = TypeVar("T", bound="NewSignatureField")



@_attrs_define
class NewSignatureField:
    """ The widgets of a new signature field (XML:
    <SignatureField><widget><pageIndex/><rectangle>…</rectangle></widget></SignatureField>); none, or an empty list,
    makes an invisible field

        Attributes:
            widget (list[NewSignatureFieldWidgetItem] | Unset):
     """

    widget: list[NewSignatureFieldWidgetItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.new_signature_field_widget_item import NewSignatureFieldWidgetItem # noqa: PLC0415
        widget: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.widget, Unset):
            widget = []
            for widget_item_data in self.widget:
                widget_item = widget_item_data.to_dict()
                widget.append(widget_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if widget is not UNSET:
            field_dict["widget"] = widget

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_signature_field_widget_item import NewSignatureFieldWidgetItem # noqa: PLC0415
        d = dict(src_dict)
        _widget = d.pop("widget", UNSET)
        widget: list[NewSignatureFieldWidgetItem] | Unset = UNSET
        if _widget is not UNSET:
            widget = []
            for widget_item_data in _widget:
                widget_item = NewSignatureFieldWidgetItem.from_dict(widget_item_data)



                widget.append(widget_item)


        new_signature_field = cls(
            widget=widget,
        )

        return new_signature_field

