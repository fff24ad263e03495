from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.upload_to_folder_json_body_move_action import UploadToFolderJsonBodyMoveAction





T = TypeVar("T", bound="UploadToFolderJsonBody")



@_attrs_define
class UploadToFolderJsonBody:
    """ 
        Attributes:
            move_action (UploadToFolderJsonBodyMoveAction): Moves (renames) the folder, with everything in it and the
                versions of its documents, to savePath; needs the rights PUT and DELETE
     """

    move_action: UploadToFolderJsonBodyMoveAction





    def to_dict(self) -> dict[str, Any]:
        from ..models.upload_to_folder_json_body_move_action import UploadToFolderJsonBodyMoveAction # noqa: PLC0415
        move_action = self.move_action.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "MoveAction": move_action,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.upload_to_folder_json_body_move_action import UploadToFolderJsonBodyMoveAction # noqa: PLC0415
        d = dict(src_dict)
        move_action = UploadToFolderJsonBodyMoveAction.from_dict(d.pop("MoveAction"))




        upload_to_folder_json_body = cls(
            move_action=move_action,
        )

        return upload_to_folder_json_body

