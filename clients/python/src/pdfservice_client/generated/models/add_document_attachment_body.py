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
  from ..models.new_document_attachment import NewDocumentAttachment





T = TypeVar("T", bound="AddDocumentAttachmentBody")



@_attrs_define
class AddDocumentAttachmentBody:
    """ 
        Attributes:
            file (File): The file to attach
            attachment (NewDocumentAttachment | Unset):
     """

    file: File
    attachment: NewDocumentAttachment | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.new_document_attachment import NewDocumentAttachment # noqa: PLC0415
        file = self.file.to_tuple()


        attachment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.attachment, Unset):
            attachment = self.attachment.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "file": file,
        })
        if attachment is not UNSET:
            field_dict["attachment"] = attachment

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.new_document_attachment import NewDocumentAttachment # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.attachment, Unset):
            files.append(("attachment", (None, json.dumps( self.attachment.to_dict()).encode(), "application/json")))




        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_document_attachment import NewDocumentAttachment # noqa: PLC0415
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        _attachment = d.pop("attachment", UNSET)
        attachment: NewDocumentAttachment | Unset
        if isinstance(_attachment,  Unset):
            attachment = UNSET
        else:
            attachment = NewDocumentAttachment.from_dict(_attachment)




        add_document_attachment_body = cls(
            file=file,
            attachment=attachment,
        )


        add_document_attachment_body.additional_properties = d
        return add_document_attachment_body

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
