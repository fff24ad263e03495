from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_document_action_files_body_page_action_move_action_naming_mode import RunDocumentActionFilesBodyPageActionMoveActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="RunDocumentActionFilesBodyPageActionMoveAction")



@_attrs_define
class RunDocumentActionFilesBodyPageActionMoveAction:
    """ Moves (renames) the document to savePath (required), with its versions; needs the rights PUT and DELETE.

        Attributes:
            save_path (str): Path of the output document ("folder/name.pdf"); absent: the original is replaced. Folders are
                created.
            naming_mode (RunDocumentActionFilesBodyPageActionMoveActionNamingMode | Unset): When savePath exists: 0 fail
                with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunDocumentActionFilesBodyPageActionMoveActionNamingMode.VALUE_0.
     """

    save_path: str
    naming_mode: RunDocumentActionFilesBodyPageActionMoveActionNamingMode | Unset = RunDocumentActionFilesBodyPageActionMoveActionNamingMode.VALUE_0





    def to_dict(self) -> dict[str, Any]:
        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "savePath": save_path,
        })
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        save_path = d.pop("savePath")

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunDocumentActionFilesBodyPageActionMoveActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunDocumentActionFilesBodyPageActionMoveActionNamingMode(_naming_mode)




        run_document_action_files_body_page_action_move_action = cls(
            save_path=save_path,
            naming_mode=naming_mode,
        )

        return run_document_action_files_body_page_action_move_action

