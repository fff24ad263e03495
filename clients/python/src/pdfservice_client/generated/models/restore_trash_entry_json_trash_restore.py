from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RestoreTrashEntryJsonTrashRestore")



@_attrs_define
class RestoreTrashEntryJsonTrashRestore:
    """ Where to restore an entry; empty (or no body): its original path

        Attributes:
            save_path (str | Unset): Another path: a document path ("a/b.pdf") for a document entry, a folder path for a
                folder entry
     """

    save_path: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        save_path: str | Unset
        if isinstance(self.save_path, Unset):
            save_path = UNSET
        else:
            save_path = self.save_path


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_save_path(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        save_path = _parse_save_path(d.pop("savePath", UNSET))


        restore_trash_entry_json_trash_restore = cls(
            save_path=save_path,
        )

        return restore_trash_entry_json_trash_restore

