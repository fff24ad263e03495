from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.job_result_document import JobResultDocument
  from ..models.job_result_file import JobResultFile





T = TypeVar("T", bound="JobResult")



@_attrs_define
class JobResult:
    """ A succeeded job: the written document and the status the inline request would have answered, or the file it produced
    (an export, a compare: with the document it was read from; a one-shot conversion: no path, no document)

        Attributes:
            path (str | Unset):
            url (str | Unset): The written document's URL
            status (int | Unset):
            document (JobResultDocument | Unset): The written document's DocumentModel (or the model the action answers)
            file (JobResultFile | Unset): The job produced a file that is not a stored document (an export, a compare, a
                one-shot conversion): download it from `url` (GET /jobs/{id}/result) while the job is kept. `path`, `url` and
                `document` then name the document it was read from, unchanged (`document.etag`: the version read; a compare's
                other document is the job's `base`); a one-shot conversion has neither
     """

    path: str | Unset = UNSET
    url: str | Unset = UNSET
    status: int | Unset = UNSET
    document: JobResultDocument | Unset = UNSET
    file: JobResultFile | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.job_result_document import JobResultDocument # noqa: PLC0415
        from ..models.job_result_file import JobResultFile # noqa: PLC0415
        path = self.path

        url = self.url

        status = self.status

        document: dict[str, Any] | Unset = UNSET
        if not isinstance(self.document, Unset):
            document = self.document.to_dict()

        file: dict[str, Any] | Unset = UNSET
        if not isinstance(self.file, Unset):
            file = self.file.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if path is not UNSET:
            field_dict["path"] = path
        if url is not UNSET:
            field_dict["url"] = url
        if status is not UNSET:
            field_dict["status"] = status
        if document is not UNSET:
            field_dict["document"] = document
        if file is not UNSET:
            field_dict["file"] = file

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_result_document import JobResultDocument # noqa: PLC0415
        from ..models.job_result_file import JobResultFile # noqa: PLC0415
        d = dict(src_dict)
        path = d.pop("path", UNSET)

        url = d.pop("url", UNSET)

        status = d.pop("status", UNSET)

        _document = d.pop("document", UNSET)
        document: JobResultDocument | Unset
        if isinstance(_document,  Unset):
            document = UNSET
        else:
            document = JobResultDocument.from_dict(_document)




        _file = d.pop("file", UNSET)
        file: JobResultFile | Unset
        if isinstance(_file,  Unset):
            file = UNSET
        else:
            file = JobResultFile.from_dict(_file)




        job_result = cls(
            path=path,
            url=url,
            status=status,
            document=document,
            file=file,
        )


        job_result.additional_properties = d
        return job_result

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
