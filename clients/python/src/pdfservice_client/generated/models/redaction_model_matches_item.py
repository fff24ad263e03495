from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.redaction_model_matches_item_found_in import RedactionModelMatchesItemFoundIn
from ..types import UNSET, Unset






T = TypeVar("T", bound="RedactionModelMatchesItem")



@_attrs_define
class RedactionModelMatchesItem:
    """ 
        Attributes:
            name (str | Unset): The created Redact annotation
            page_index (int | Unset):
            text (str | Unset): The matched text as extracted
            found_in (RedactionModelMatchesItemFoundIn | Unset):
            annotation (str | Unset): With foundIn "annotation": the annotation whose appearance shows the text
     """

    name: str | Unset = UNSET
    page_index: int | Unset = UNSET
    text: str | Unset = UNSET
    found_in: RedactionModelMatchesItemFoundIn | Unset = UNSET
    annotation: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        page_index = self.page_index

        text = self.text

        found_in: str | Unset = UNSET
        if not isinstance(self.found_in, Unset):
            found_in = self.found_in.value


        annotation = self.annotation


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if text is not UNSET:
            field_dict["text"] = text
        if found_in is not UNSET:
            field_dict["foundIn"] = found_in
        if annotation is not UNSET:
            field_dict["annotation"] = annotation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        text = d.pop("text", UNSET)

        _found_in = d.pop("foundIn", UNSET)
        found_in: RedactionModelMatchesItemFoundIn | Unset
        if isinstance(_found_in,  Unset):
            found_in = UNSET
        else:
            found_in = RedactionModelMatchesItemFoundIn(_found_in)




        annotation = d.pop("annotation", UNSET)

        redaction_model_matches_item = cls(
            name=name,
            page_index=page_index,
            text=text,
            found_in=found_in,
            annotation=annotation,
        )


        redaction_model_matches_item.additional_properties = d
        return redaction_model_matches_item

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
