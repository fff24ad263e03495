from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.watched_folder_request_pipeline import WatchedFolderRequestPipeline





T = TypeVar("T", bound="WatchedFolderRequest")



@_attrs_define
class WatchedFolderRequest:
    """ WatchedFolder (XML: <WatchedFolder>) to bind: every document arriving in `folder` runs `pipeline` as the binder, its
    output written to `target` under the same name (absent: in place, as a new version). See docs/watched-folders.md.

        Attributes:
            folder (str): The watched folder, as savePath names one ("inbox", "scans/2026"); only documents directly in it
                arrive
            pipeline (WatchedFolderRequestPipeline):
            target (str | Unset): The folder outputs go to (made when missing); absent: in place. A target from which
                watched folders lead back here is 400 WATCH_CYCLE
     """

    folder: str
    pipeline: WatchedFolderRequestPipeline
    target: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.watched_folder_request_pipeline import WatchedFolderRequestPipeline # noqa: PLC0415
        folder = self.folder

        pipeline = self.pipeline.to_dict()

        target = self.target


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "folder": folder,
            "pipeline": pipeline,
        })
        if target is not UNSET:
            field_dict["target"] = target

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.watched_folder_request_pipeline import WatchedFolderRequestPipeline # noqa: PLC0415
        d = dict(src_dict)
        folder = d.pop("folder")

        pipeline = WatchedFolderRequestPipeline.from_dict(d.pop("pipeline"))




        target = d.pop("target", UNSET)

        watched_folder_request = cls(
            folder=folder,
            pipeline=pipeline,
            target=target,
        )

        return watched_folder_request

