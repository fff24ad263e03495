from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.new_signature_field_widget_item_rectangle import NewSignatureFieldWidgetItemRectangle





T = TypeVar("T", bound="NewSignatureFieldWidgetItem")



@_attrs_define
class NewSignatureFieldWidgetItem:
    """ 
        Attributes:
            page_index (int):
            rectangle (NewSignatureFieldWidgetItemRectangle):
     """

    page_index: int
    rectangle: NewSignatureFieldWidgetItemRectangle





    def to_dict(self) -> dict[str, Any]:
        from ..models.new_signature_field_widget_item_rectangle import NewSignatureFieldWidgetItemRectangle # noqa: PLC0415
        page_index = self.page_index

        rectangle = self.rectangle.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pageIndex": page_index,
            "rectangle": rectangle,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_signature_field_widget_item_rectangle import NewSignatureFieldWidgetItemRectangle # noqa: PLC0415
        d = dict(src_dict)
        page_index = d.pop("pageIndex")

        rectangle = NewSignatureFieldWidgetItemRectangle.from_dict(d.pop("rectangle"))




        new_signature_field_widget_item = cls(
            page_index=page_index,
            rectangle=rectangle,
        )

        return new_signature_field_widget_item

