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
  from ..models.watched_folder_model_pipeline import WatchedFolderModelPipeline
  from ..models.watched_folder_model_runs_item import WatchedFolderModelRunsItem





T = TypeVar("T", bound="WatchedFolderModel")



@_attrs_define
class WatchedFolderModel:
    """ WatchedFolderModel (XML: <WatchedFolder>): a binding with its newest 100 runs, newest first.

        Attributes:
            name (str):
            owner (str): The binder: runs go as this user
            folder (str):
            pipeline (WatchedFolderModelPipeline):
            in_place (bool): Outputs are new versions of the documents that arrived
            created (datetime.datetime):
            run_count (int): Runs kept (at most 1,000); `runs` lists the newest of them
            runs (list[WatchedFolderModelRunsItem]):
            target (str | Unset): Where outputs go; absent when inPlace
     """

    name: str
    owner: str
    folder: str
    pipeline: WatchedFolderModelPipeline
    in_place: bool
    created: datetime.datetime
    run_count: int
    runs: list[WatchedFolderModelRunsItem]
    target: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.watched_folder_model_pipeline import WatchedFolderModelPipeline # noqa: PLC0415
        from ..models.watched_folder_model_runs_item import WatchedFolderModelRunsItem # noqa: PLC0415
        name = self.name

        owner = self.owner

        folder = self.folder

        pipeline = self.pipeline.to_dict()

        in_place = self.in_place

        created = self.created.isoformat()

        run_count = self.run_count

        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)



        target = self.target


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "owner": owner,
            "folder": folder,
            "pipeline": pipeline,
            "inPlace": in_place,
            "created": created,
            "runCount": run_count,
            "runs": runs,
        })
        if target is not UNSET:
            field_dict["target"] = target

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.watched_folder_model_pipeline import WatchedFolderModelPipeline # noqa: PLC0415
        from ..models.watched_folder_model_runs_item import WatchedFolderModelRunsItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        owner = d.pop("owner")

        folder = d.pop("folder")

        pipeline = WatchedFolderModelPipeline.from_dict(d.pop("pipeline"))




        in_place = d.pop("inPlace")

        created = datetime.datetime.fromisoformat(d.pop("created"))




        run_count = d.pop("runCount")

        runs = []
        _runs = d.pop("runs")
        for runs_item_data in (_runs):
            runs_item = WatchedFolderModelRunsItem.from_dict(runs_item_data)



            runs.append(runs_item)


        target = d.pop("target", UNSET)

        watched_folder_model = cls(
            name=name,
            owner=owner,
            folder=folder,
            pipeline=pipeline,
            in_place=in_place,
            created=created,
            run_count=run_count,
            runs=runs,
            target=target,
        )


        watched_folder_model.additional_properties = d
        return watched_folder_model

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
