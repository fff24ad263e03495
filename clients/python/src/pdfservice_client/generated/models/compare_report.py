from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.compare_page import ComparePage
  from ..models.compare_report_options import CompareReportOptions
  from ..models.compare_report_summary import CompareReportSummary
  from ..models.compare_side import CompareSide





T = TypeVar("T", bound="CompareReport")



@_attrs_define
class CompareReport:
    """ 
        Attributes:
            document (CompareSide):
            base (CompareSide):
            identical (bool): No page changed, moved, inserted or deleted
            options (CompareReportOptions):
            summary (CompareReportSummary):
            pages (list[ComparePage]): The document's pages in order, then the base's deleted pages
     """

    document: CompareSide
    base: CompareSide
    identical: bool
    options: CompareReportOptions
    summary: CompareReportSummary
    pages: list[ComparePage]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.compare_page import ComparePage # noqa: PLC0415
        from ..models.compare_report_options import CompareReportOptions # noqa: PLC0415
        from ..models.compare_report_summary import CompareReportSummary # noqa: PLC0415
        from ..models.compare_side import CompareSide # noqa: PLC0415
        document = self.document.to_dict()

        base = self.base.to_dict()

        identical = self.identical

        options = self.options.to_dict()

        summary = self.summary.to_dict()

        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "document": document,
            "base": base,
            "identical": identical,
            "options": options,
            "summary": summary,
            "pages": pages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compare_page import ComparePage # noqa: PLC0415
        from ..models.compare_report_options import CompareReportOptions # noqa: PLC0415
        from ..models.compare_report_summary import CompareReportSummary # noqa: PLC0415
        from ..models.compare_side import CompareSide # noqa: PLC0415
        d = dict(src_dict)
        document = CompareSide.from_dict(d.pop("document"))




        base = CompareSide.from_dict(d.pop("base"))




        identical = d.pop("identical")

        options = CompareReportOptions.from_dict(d.pop("options"))




        summary = CompareReportSummary.from_dict(d.pop("summary"))




        pages = []
        _pages = d.pop("pages")
        for pages_item_data in (_pages):
            pages_item = ComparePage.from_dict(pages_item_data)



            pages.append(pages_item)


        compare_report = cls(
            document=document,
            base=base,
            identical=identical,
            options=options,
            summary=summary,
            pages=pages,
        )


        compare_report.additional_properties = d
        return compare_report

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
