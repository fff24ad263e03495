from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO
from typing import cast

if TYPE_CHECKING:
  from ..models.run_document_action_files_body_action import RunDocumentActionFilesBodyAction
  from ..models.run_document_action_files_body_page_action import RunDocumentActionFilesBodyPageAction





T = TypeVar("T", bound="RunDocumentActionFilesBody")



@_attrs_define
class RunDocumentActionFilesBody:
    """ 
        Attributes:
            page_action (RunDocumentActionFilesBodyPageAction): The action, as in a JSON body
            action (RunDocumentActionFilesBodyAction | Unset): Another name for the pageAction part: send one of the two
                (both is 400 MALFORMED_MULTIPART)
            file (File | Unset): A file the action uses (an image to stamp, pages to insert); other file parts are read the
                same way
     """

    page_action: RunDocumentActionFilesBodyPageAction
    action: RunDocumentActionFilesBodyAction | Unset = UNSET
    file: File | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_document_action_files_body_action import RunDocumentActionFilesBodyAction # noqa: PLC0415
        from ..models.run_document_action_files_body_page_action import RunDocumentActionFilesBodyPageAction # noqa: PLC0415
        page_action = self.page_action.to_dict()

        action: dict[str, Any] | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action.to_dict()

        file: FileTypes | Unset = UNSET
        if not isinstance(self.file, Unset):
            file = self.file.to_tuple()



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pageAction": page_action,
        })
        if action is not UNSET:
            field_dict["action"] = action
        if file is not UNSET:
            field_dict["file"] = file

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.run_document_action_files_body_action import RunDocumentActionFilesBodyAction # noqa: PLC0415
        from ..models.run_document_action_files_body_page_action import RunDocumentActionFilesBodyPageAction # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("pageAction", (None, json.dumps( self.page_action.to_dict()).encode(), "application/json")))



        if not isinstance(self.action, Unset):
            files.append(("action", (None, json.dumps( self.action.to_dict()).encode(), "application/json")))



        if not isinstance(self.file, Unset):
            files.append(("file", self.file.to_tuple()))




        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_document_action_files_body_action import RunDocumentActionFilesBodyAction # noqa: PLC0415
        from ..models.run_document_action_files_body_page_action import RunDocumentActionFilesBodyPageAction # noqa: PLC0415
        d = dict(src_dict)
        page_action = RunDocumentActionFilesBodyPageAction.from_dict(d.pop("pageAction"))




        _action = d.pop("action", UNSET)
        action: RunDocumentActionFilesBodyAction | Unset
        if isinstance(_action,  Unset):
            action = UNSET
        else:
            action = RunDocumentActionFilesBodyAction.from_dict(_action)




        _file = d.pop("file", UNSET)
        file: File | Unset
        if isinstance(_file,  Unset):
            file = UNSET
        else:
            file = File(
             payload = BytesIO(_file)
        )




        run_document_action_files_body = cls(
            page_action=page_action,
            action=action,
            file=file,
        )


        run_document_action_files_body.additional_properties = d
        return run_document_action_files_body

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
