from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.list_tokens_response_200_tokens_item import ListTokensResponse200TokensItem





T = TypeVar("T", bound="ListTokensResponse200")



@_attrs_define
class ListTokensResponse200:
    """ TokensModel (XML: <Tokens> holding one <Token> each): the caller's API tokens, oldest first.

        Attributes:
            tokens (list[ListTokensResponse200TokensItem]): The caller's tokens
     """

    tokens: list[ListTokensResponse200TokensItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_tokens_response_200_tokens_item import ListTokensResponse200TokensItem # noqa: PLC0415
        tokens = []
        for tokens_item_data in self.tokens:
            tokens_item = tokens_item_data.to_dict()
            tokens.append(tokens_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tokens": tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_tokens_response_200_tokens_item import ListTokensResponse200TokensItem # noqa: PLC0415
        d = dict(src_dict)
        tokens = []
        _tokens = d.pop("tokens")
        for tokens_item_data in (_tokens):
            tokens_item = ListTokensResponse200TokensItem.from_dict(tokens_item_data)



            tokens.append(tokens_item)


        list_tokens_response_200 = cls(
            tokens=tokens,
        )


        list_tokens_response_200.additional_properties = d
        return list_tokens_response_200

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
