from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.watched_folder_model import WatchedFolderModel





T = TypeVar("T", bound="WatchedFoldersModel")



@_attrs_define
class WatchedFoldersModel:
    """ WatchedFoldersModel (XML: <WatchedFolders> holding one <WatchedFolder> each): the caller's bindings by name.

        Attributes:
            watched_folders (list[WatchedFolderModel]):
     """

    watched_folders: list[WatchedFolderModel]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.watched_folder_model import WatchedFolderModel # noqa: PLC0415
        watched_folders = []
        for watched_folders_item_data in self.watched_folders:
            watched_folders_item = watched_folders_item_data.to_dict()
            watched_folders.append(watched_folders_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "watchedFolders": watched_folders,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.watched_folder_model import WatchedFolderModel # noqa: PLC0415
        d = dict(src_dict)
        watched_folders = []
        _watched_folders = d.pop("watchedFolders")
        for watched_folders_item_data in (_watched_folders):
            watched_folders_item = WatchedFolderModel.from_dict(watched_folders_item_data)



            watched_folders.append(watched_folders_item)


        watched_folders_model = cls(
            watched_folders=watched_folders,
        )


        watched_folders_model.additional_properties = d
        return watched_folders_model

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
