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
  from ..models.pipeline_model_steps_item import PipelineModelStepsItem





T = TypeVar("T", bound="PipelineModel")



@_attrs_define
class PipelineModel:
    """ PipelineModel (XML: <Pipeline>): one version of a pipeline, its steps as stored (every default filled in).

        Attributes:
            name (str):
            owner (str): The user it belongs to
            version (int): This version's number (1 for the first PUT, one more for each PUT after it)
            latest_version (int): The newest version's number
            etag (str): This version's ETag (If-Match on PUT and DELETE names the newest)
            shared (bool): Shared with every user (set by an admin)
            steps (list[PipelineModelStepsItem]):
            created (datetime.datetime): When this version was saved
            created_by (str): Who saved this version (the owner, or an admin)
            description (str | Unset):
     """

    name: str
    owner: str
    version: int
    latest_version: int
    etag: str
    shared: bool
    steps: list[PipelineModelStepsItem]
    created: datetime.datetime
    created_by: str
    description: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pipeline_model_steps_item import PipelineModelStepsItem # noqa: PLC0415
        name = self.name

        owner = self.owner

        version = self.version

        latest_version = self.latest_version

        etag = self.etag

        shared = self.shared

        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)



        created = self.created.isoformat()

        created_by = self.created_by

        description = self.description


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "owner": owner,
            "version": version,
            "latestVersion": latest_version,
            "etag": etag,
            "shared": shared,
            "steps": steps,
            "created": created,
            "createdBy": created_by,
        })
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pipeline_model_steps_item import PipelineModelStepsItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        owner = d.pop("owner")

        version = d.pop("version")

        latest_version = d.pop("latestVersion")

        etag = d.pop("etag")

        shared = d.pop("shared")

        steps = []
        _steps = d.pop("steps")
        for steps_item_data in (_steps):
            steps_item = PipelineModelStepsItem.from_dict(steps_item_data)



            steps.append(steps_item)


        created = datetime.datetime.fromisoformat(d.pop("created"))




        created_by = d.pop("createdBy")

        description = d.pop("description", UNSET)

        pipeline_model = cls(
            name=name,
            owner=owner,
            version=version,
            latest_version=latest_version,
            etag=etag,
            shared=shared,
            steps=steps,
            created=created,
            created_by=created_by,
            description=description,
        )


        pipeline_model.additional_properties = d
        return pipeline_model

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
