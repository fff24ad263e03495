from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.version_model import VersionModel





T = TypeVar("T", bound="VersionsModel")



@_attrs_define
class VersionsModel:
    """ VersionsModel (XML: <Versions> with one <version> per version listed, then the paging): newest first, at most limit
    from offset (default 100, at most 1000); the Link header has next and prev

        Attributes:
            versions (list[VersionModel]):
            total (int): Versions kept of the document
            offset (int):
            limit (int):
            current (None | str): The current version's id (null when no kept version is the current content)
            next_ (str | Unset): URL of the next slice; absent on the last
            prev (str | Unset): URL of the previous slice; absent on the first
     """

    versions: list[VersionModel]
    total: int
    offset: int
    limit: int
    current: None | str
    next_: str | Unset = UNSET
    prev: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.version_model import VersionModel # noqa: PLC0415
        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)



        total = self.total

        offset = self.offset

        limit = self.limit

        current: None | str
        current = self.current

        next_ = self.next_

        prev = self.prev


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "versions": versions,
            "total": total,
            "offset": offset,
            "limit": limit,
            "current": current,
        })
        if next_ is not UNSET:
            field_dict["next"] = next_
        if prev is not UNSET:
            field_dict["prev"] = prev

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.version_model import VersionModel # noqa: PLC0415
        d = dict(src_dict)
        versions = []
        _versions = d.pop("versions")
        for versions_item_data in (_versions):
            versions_item = VersionModel.from_dict(versions_item_data)



            versions.append(versions_item)


        total = d.pop("total")

        offset = d.pop("offset")

        limit = d.pop("limit")

        def _parse_current(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        current = _parse_current(d.pop("current"))


        next_ = d.pop("next", UNSET)

        prev = d.pop("prev", UNSET)

        versions_model = cls(
            versions=versions,
            total=total,
            offset=offset,
            limit=limit,
            current=current,
            next_=next_,
            prev=prev,
        )


        versions_model.additional_properties = d
        return versions_model

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
