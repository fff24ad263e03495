from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.document_model_report import DocumentModelReport





T = TypeVar("T", bound="DocumentModel")



@_attrs_define
class DocumentModel:
    """ DocumentModel (XML: <Document>). Content fields appear when the document could be opened.

        Attributes:
            path (str):
            name (str):
            size (int): Bytes
            modified (datetime.datetime):
            etag (str): Strong entity tag (content hash), as in the ETag header
            encrypted (bool):
            page_count (int | Unset):
            pdf_version (str | Unset):
            title (str | Unset):
            author (str | Unset):
            subject (str | Unset):
            keywords (str | Unset):
            creator (str | Unset):
            producer (str | Unset):
            creation_date (datetime.datetime | Unset):
            modification_date (datetime.datetime | Unset):
            has_form (bool | Unset):
            has_xfa (bool | Unset):
            has_signatures (bool | Unset): A signature field carries a signature
            linearized (bool | Unset): Linearized (fast web view) as qpdf decides it: false once an incremental update
                follows the linearized file
            versions_purged (int | Unset): After an action that removes content (ApplyRedactionsAction, without
                keepVersions): how many earlier versions of the document were removed (docs/versions.md)
            report (DocumentModelReport | Unset): What a document action did, when it reports (ApplyRedactionsAction:
                applied, pages, removedAnnotations, elsewhere, scrubbed)
     """

    path: str
    name: str
    size: int
    modified: datetime.datetime
    etag: str
    encrypted: bool
    page_count: int | Unset = UNSET
    pdf_version: str | Unset = UNSET
    title: str | Unset = UNSET
    author: str | Unset = UNSET
    subject: str | Unset = UNSET
    keywords: str | Unset = UNSET
    creator: str | Unset = UNSET
    producer: str | Unset = UNSET
    creation_date: datetime.datetime | Unset = UNSET
    modification_date: datetime.datetime | Unset = UNSET
    has_form: bool | Unset = UNSET
    has_xfa: bool | Unset = UNSET
    has_signatures: bool | Unset = UNSET
    linearized: bool | Unset = UNSET
    versions_purged: int | Unset = UNSET
    report: DocumentModelReport | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.document_model_report import DocumentModelReport # noqa: PLC0415
        path = self.path

        name = self.name

        size = self.size

        modified = self.modified.isoformat()

        etag = self.etag

        encrypted = self.encrypted

        page_count = self.page_count

        pdf_version = self.pdf_version

        title = self.title

        author = self.author

        subject = self.subject

        keywords = self.keywords

        creator = self.creator

        producer = self.producer

        creation_date: str | Unset = UNSET
        if not isinstance(self.creation_date, Unset):
            creation_date = self.creation_date.isoformat()

        modification_date: str | Unset = UNSET
        if not isinstance(self.modification_date, Unset):
            modification_date = self.modification_date.isoformat()

        has_form = self.has_form

        has_xfa = self.has_xfa

        has_signatures = self.has_signatures

        linearized = self.linearized

        versions_purged = self.versions_purged

        report: dict[str, Any] | Unset = UNSET
        if not isinstance(self.report, Unset):
            report = self.report.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "path": path,
            "name": name,
            "size": size,
            "modified": modified,
            "etag": etag,
            "encrypted": encrypted,
        })
        if page_count is not UNSET:
            field_dict["pageCount"] = page_count
        if pdf_version is not UNSET:
            field_dict["pdfVersion"] = pdf_version
        if title is not UNSET:
            field_dict["title"] = title
        if author is not UNSET:
            field_dict["author"] = author
        if subject is not UNSET:
            field_dict["subject"] = subject
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if creator is not UNSET:
            field_dict["creator"] = creator
        if producer is not UNSET:
            field_dict["producer"] = producer
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modification_date is not UNSET:
            field_dict["modificationDate"] = modification_date
        if has_form is not UNSET:
            field_dict["hasForm"] = has_form
        if has_xfa is not UNSET:
            field_dict["hasXfa"] = has_xfa
        if has_signatures is not UNSET:
            field_dict["hasSignatures"] = has_signatures
        if linearized is not UNSET:
            field_dict["linearized"] = linearized
        if versions_purged is not UNSET:
            field_dict["versionsPurged"] = versions_purged
        if report is not UNSET:
            field_dict["report"] = report

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_model_report import DocumentModelReport # noqa: PLC0415
        d = dict(src_dict)
        path = d.pop("path")

        name = d.pop("name")

        size = d.pop("size")

        modified = datetime.datetime.fromisoformat(d.pop("modified"))




        etag = d.pop("etag")

        encrypted = d.pop("encrypted")

        page_count = d.pop("pageCount", UNSET)

        pdf_version = d.pop("pdfVersion", UNSET)

        title = d.pop("title", UNSET)

        author = d.pop("author", UNSET)

        subject = d.pop("subject", UNSET)

        keywords = d.pop("keywords", UNSET)

        creator = d.pop("creator", UNSET)

        producer = d.pop("producer", UNSET)

        _creation_date = d.pop("creationDate", UNSET)
        creation_date: datetime.datetime | Unset
        if isinstance(_creation_date,  Unset):
            creation_date = UNSET
        else:
            creation_date = datetime.datetime.fromisoformat(_creation_date)




        _modification_date = d.pop("modificationDate", UNSET)
        modification_date: datetime.datetime | Unset
        if isinstance(_modification_date,  Unset):
            modification_date = UNSET
        else:
            modification_date = datetime.datetime.fromisoformat(_modification_date)




        has_form = d.pop("hasForm", UNSET)

        has_xfa = d.pop("hasXfa", UNSET)

        has_signatures = d.pop("hasSignatures", UNSET)

        linearized = d.pop("linearized", UNSET)

        versions_purged = d.pop("versionsPurged", UNSET)

        _report = d.pop("report", UNSET)
        report: DocumentModelReport | Unset
        if isinstance(_report,  Unset):
            report = UNSET
        else:
            report = DocumentModelReport.from_dict(_report)




        document_model = cls(
            path=path,
            name=name,
            size=size,
            modified=modified,
            etag=etag,
            encrypted=encrypted,
            page_count=page_count,
            pdf_version=pdf_version,
            title=title,
            author=author,
            subject=subject,
            keywords=keywords,
            creator=creator,
            producer=producer,
            creation_date=creation_date,
            modification_date=modification_date,
            has_form=has_form,
            has_xfa=has_xfa,
            has_signatures=has_signatures,
            linearized=linearized,
            versions_purged=versions_purged,
            report=report,
        )


        document_model.additional_properties = d
        return document_model

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
