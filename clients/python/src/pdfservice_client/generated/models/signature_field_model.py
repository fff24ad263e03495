from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.signature_field_model_widgets_item import SignatureFieldModelWidgetsItem
  from ..models.signature_model import SignatureModel





T = TypeVar("T", bound="SignatureFieldModel")



@_attrs_define
class SignatureFieldModel:
    """ SignatureFieldModel (XML: <SignatureField>)

        Attributes:
            name (str):
            widgets (list[SignatureFieldModelWidgetsItem]):
            visible (bool): Some widget has an area on a page and is not hidden
            signed (bool):
            signature (SignatureModel | Unset): The signature in a signed field, verified by the service
     """

    name: str
    widgets: list[SignatureFieldModelWidgetsItem]
    visible: bool
    signed: bool
    signature: SignatureModel | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signature_field_model_widgets_item import SignatureFieldModelWidgetsItem # noqa: PLC0415
        from ..models.signature_model import SignatureModel # noqa: PLC0415
        name = self.name

        widgets = []
        for widgets_item_data in self.widgets:
            widgets_item = widgets_item_data.to_dict()
            widgets.append(widgets_item)



        visible = self.visible

        signed = self.signed

        signature: dict[str, Any] | Unset = UNSET
        if not isinstance(self.signature, Unset):
            signature = self.signature.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "widgets": widgets,
            "visible": visible,
            "signed": signed,
        })
        if signature is not UNSET:
            field_dict["signature"] = signature

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signature_field_model_widgets_item import SignatureFieldModelWidgetsItem # noqa: PLC0415
        from ..models.signature_model import SignatureModel # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        widgets = []
        _widgets = d.pop("widgets")
        for widgets_item_data in (_widgets):
            widgets_item = SignatureFieldModelWidgetsItem.from_dict(widgets_item_data)



            widgets.append(widgets_item)


        visible = d.pop("visible")

        signed = d.pop("signed")

        _signature = d.pop("signature", UNSET)
        signature: SignatureModel | Unset
        if isinstance(_signature,  Unset):
            signature = UNSET
        else:
            signature = SignatureModel.from_dict(_signature)




        signature_field_model = cls(
            name=name,
            widgets=widgets,
            visible=visible,
            signed=signed,
            signature=signature,
        )


        signature_field_model.additional_properties = d
        return signature_field_model

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
