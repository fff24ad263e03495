from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UploadToFolderJsonBodyMoveAction")



@_attrs_define
class UploadToFolderJsonBodyMoveAction:
    """ Moves (renames) the folder, with everything in it and the versions of its documents, to savePath; needs the rights
    PUT and DELETE

        Attributes:
            save_path (str): The folder's new path ("archive/2026"); it must not exist (409 ALREADY_EXISTS) nor be inside
                the folder (400 MOVE_INTO_ITSELF). Folders above it are created.
     """

    save_path: str





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "savePath": save_path,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath")

        upload_to_folder_json_body_move_action = cls(
            save_path=save_path,
        )

        return upload_to_folder_json_body_move_action

