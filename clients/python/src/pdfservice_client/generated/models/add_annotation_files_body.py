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
  from ..models.new_file_attachment_annotation import NewFileAttachmentAnnotation





T = TypeVar("T", bound="AddAnnotationFilesBody")



@_attrs_define
class AddAnnotationFilesBody:
    """ 
        Attributes:
            annotation (NewFileAttachmentAnnotation): The `annotation` part of an A4 request
            file (File): The file to embed
            file_disposition (str | Unset): attachment; filename="report.csv", or JSON with fileName, description,
                mediaType, creationDate, modificationDate
     """

    annotation: NewFileAttachmentAnnotation
    file: File
    file_disposition: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.new_file_attachment_annotation import NewFileAttachmentAnnotation # noqa: PLC0415
        annotation = self.annotation.to_dict()

        file = self.file.to_tuple()


        file_disposition = self.file_disposition


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "annotation": annotation,
            "file": file,
        })
        if file_disposition is not UNSET:
            field_dict["fileDisposition"] = file_disposition

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.new_file_attachment_annotation import NewFileAttachmentAnnotation # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("annotation", (None, json.dumps( self.annotation.to_dict()).encode(), "application/json")))



        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.file_disposition, Unset):
            files.append(("fileDisposition", (None, str(self.file_disposition).encode(), "text/plain")))




        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_file_attachment_annotation import NewFileAttachmentAnnotation # noqa: PLC0415
        d = dict(src_dict)
        annotation = NewFileAttachmentAnnotation.from_dict(d.pop("annotation"))




        file = File(
             payload = BytesIO(d.pop("file"))
        )




        file_disposition = d.pop("fileDisposition", UNSET)

        add_annotation_files_body = cls(
            annotation=annotation,
            file=file,
            file_disposition=file_disposition,
        )


        add_annotation_files_body.additional_properties = d
        return add_annotation_files_body

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
