from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step import ActionStep





T = TypeVar("T", bound="PipelineRequest")



@_attrs_define
class PipelineRequest:
    """ Pipeline (XML: <Pipeline>, the steps as <steps><step><ActionName>…</ActionName></step></steps>) to save as a new
    version. Each step is an action as POST /documents/{filePath}.pdf takes it, without savePath and namingMode; it is
    checked by that action when saved.

        Attributes:
            steps (list[ActionStep]): The actions, run in order (at most 20)
            description (str | Unset):
            shared (bool | Unset): Shared with every user (admins only); absent: false
     """

    steps: list[ActionStep]
    description: str | Unset = UNSET
    shared: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step import ActionStep # noqa: PLC0415
        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)



        description = self.description

        shared = self.shared


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "steps": steps,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if shared is not UNSET:
            field_dict["shared"] = shared

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step import ActionStep # noqa: PLC0415
        d = dict(src_dict)
        steps = []
        _steps = d.pop("steps")
        for steps_item_data in (_steps):
            steps_item = ActionStep.from_dict(steps_item_data)



            steps.append(steps_item)


        description = d.pop("description", UNSET)

        shared = d.pop("shared", UNSET)

        pipeline_request = cls(
            steps=steps,
            description=description,
            shared=shared,
        )

        return pipeline_request

