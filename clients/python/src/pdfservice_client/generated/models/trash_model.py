from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.trash_entry_model import TrashEntryModel





T = TypeVar("T", bound="TrashModel")



@_attrs_define
class TrashModel:
    """ TrashModel (XML: <Trash> with one <entry> per entry listed, then the paging): newest first, at most limit from
    offset (default 100, at most 1000); the Link header has next and prev

        Attributes:
            entries (list[TrashEntryModel]):
            total (int): Entries of this owner
            offset (int):
            limit (int):
            owner (str): Whose entries: a user name, or "*" for everyone's
            next_ (str | Unset): URL of the next slice; absent on the last
            prev (str | Unset): URL of the previous slice; absent on the first
     """

    entries: list[TrashEntryModel]
    total: int
    offset: int
    limit: int
    owner: str
    next_: str | Unset = UNSET
    prev: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trash_entry_model import TrashEntryModel # noqa: PLC0415
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)



        total = self.total

        offset = self.offset

        limit = self.limit

        owner = self.owner

        next_ = self.next_

        prev = self.prev


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "entries": entries,
            "total": total,
            "offset": offset,
            "limit": limit,
            "owner": owner,
        })
        if next_ is not UNSET:
            field_dict["next"] = next_
        if prev is not UNSET:
            field_dict["prev"] = prev

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trash_entry_model import TrashEntryModel # noqa: PLC0415
        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in (_entries):
            entries_item = TrashEntryModel.from_dict(entries_item_data)



            entries.append(entries_item)


        total = d.pop("total")

        offset = d.pop("offset")

        limit = d.pop("limit")

        owner = d.pop("owner")

        next_ = d.pop("next", UNSET)

        prev = d.pop("prev", UNSET)

        trash_model = cls(
            entries=entries,
            total=total,
            offset=offset,
            limit=limit,
            owner=owner,
            next_=next_,
            prev=prev,
        )


        trash_model.additional_properties = d
        return trash_model

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
