from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.document_attachment import DocumentAttachment





T = TypeVar("T", bound="DocumentAttachmentsModel")



@_attrs_define
class DocumentAttachmentsModel:
    """ DocumentAttachmentsModel (XML: <DocumentAttachments>): the document's embedded files in the tree's order

        Attributes:
            attachments (list[DocumentAttachment]):
            warnings (list[str]): What could not be read: a damaged tree, a name twice, an entry that embeds no file
     """

    attachments: list[DocumentAttachment]
    warnings: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.document_attachment import DocumentAttachment # noqa: PLC0415
        attachments = []
        for attachments_item_data in self.attachments:
            attachments_item = attachments_item_data.to_dict()
            attachments.append(attachments_item)



        warnings = self.warnings




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attachments": attachments,
            "warnings": warnings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_attachment import DocumentAttachment # noqa: PLC0415
        d = dict(src_dict)
        attachments = []
        _attachments = d.pop("attachments")
        for attachments_item_data in (_attachments):
            attachments_item = DocumentAttachment.from_dict(attachments_item_data)



            attachments.append(attachments_item)


        warnings = cast(list[str], d.pop("warnings"))


        document_attachments_model = cls(
            attachments=attachments,
            warnings=warnings,
        )


        document_attachments_model.additional_properties = d
        return document_attachments_model

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
