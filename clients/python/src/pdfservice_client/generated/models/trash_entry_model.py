from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trash_entry_model_kind import TrashEntryModelKind
from typing import cast
import datetime






T = TypeVar("T", bound="TrashEntryModel")



@_attrs_define
class TrashEntryModel:
    """ A deleted document or folder kept in the trash, with its versions (docs/versions.md, "Trash")

        Attributes:
            id (str): Opaque and ordered: a later deletion sorts after an earlier one
            kind (TrashEntryModelKind):
            path (str): Where it was when deleted, from the root ("/a/b.pdf"): where a restore puts it back by default
            deleted (datetime.datetime):
            deleted_by (None | str): The user that deleted it (whose trash it is in)
            size (int): Bytes of the documents it holds (their current content)
            document_count (int):
            version_count (int): Versions kept with its documents, restored with them
     """

    id: str
    kind: TrashEntryModelKind
    path: str
    deleted: datetime.datetime
    deleted_by: None | str
    size: int
    document_count: int
    version_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        path = self.path

        deleted = self.deleted.isoformat()

        deleted_by: None | str
        deleted_by = self.deleted_by

        size = self.size

        document_count = self.document_count

        version_count = self.version_count


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "kind": kind,
            "path": path,
            "deleted": deleted,
            "deletedBy": deleted_by,
            "size": size,
            "documentCount": document_count,
            "versionCount": version_count,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        kind = TrashEntryModelKind(d.pop("kind"))




        path = d.pop("path")

        deleted = datetime.datetime.fromisoformat(d.pop("deleted"))




        def _parse_deleted_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        deleted_by = _parse_deleted_by(d.pop("deletedBy"))


        size = d.pop("size")

        document_count = d.pop("documentCount")

        version_count = d.pop("versionCount")

        trash_entry_model = cls(
            id=id,
            kind=kind,
            path=path,
            deleted=deleted,
            deleted_by=deleted_by,
            size=size,
            document_count=document_count,
            version_count=version_count,
        )


        trash_entry_model.additional_properties = d
        return trash_entry_model

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
