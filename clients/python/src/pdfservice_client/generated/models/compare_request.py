from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.compare_request_with import CompareRequestWith





T = TypeVar("T", bound="CompareRequest")



@_attrs_define
class CompareRequest:
    """ 
        Attributes:
            with_ (CompareRequestWith): The base the document is compared with: another stored document (filePath), a kept
                version (versionId; of filePath, else of this document), or both
            version_id (str | Unset): A kept version of this document to compare instead of its current one (in the body:
                ?versionId= on a POST names a write, refused service-wide)
            text (bool | Unset): Word-level text diff of each pair of pages (needs the copy permission of encrypted
                documents) Default: True.
            visual (bool | Unset): Pixel diff of each pair of pages, rendered at dpi Default: True.
            dpi (int | Unset): Resolution of the visual diff Default: 50.
            threshold (int | Unset): A pixel differs when a colour channel differs by more than this (0-255) Default: 48.
     """

    with_: CompareRequestWith
    version_id: str | Unset = UNSET
    text: bool | Unset = True
    visual: bool | Unset = True
    dpi: int | Unset = 50
    threshold: int | Unset = 48





    def to_dict(self) -> dict[str, Any]:
        from ..models.compare_request_with import CompareRequestWith # noqa: PLC0415
        with_ = self.with_.to_dict()

        version_id = self.version_id

        text = self.text

        visual = self.visual

        dpi = self.dpi

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "with": with_,
        })
        if version_id is not UNSET:
            field_dict["versionId"] = version_id
        if text is not UNSET:
            field_dict["text"] = text
        if visual is not UNSET:
            field_dict["visual"] = visual
        if dpi is not UNSET:
            field_dict["dpi"] = dpi
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compare_request_with import CompareRequestWith # noqa: PLC0415
        d = dict(src_dict)
        with_ = CompareRequestWith.from_dict(d.pop("with"))




        version_id = d.pop("versionId", UNSET)

        text = d.pop("text", UNSET)

        visual = d.pop("visual", UNSET)

        dpi = d.pop("dpi", UNSET)

        threshold = d.pop("threshold", UNSET)

        compare_request = cls(
            with_=with_,
            version_id=version_id,
            text=text,
            visual=visual,
            dpi=dpi,
            threshold=threshold,
        )

        return compare_request

