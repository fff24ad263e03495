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
  from ..models.action_step import ActionStep





T = TypeVar("T", bound="ConvertOneShotBody")



@_attrs_define
class ConvertOneShotBody:
    """ 
        Attributes:
            file (File): The file to convert (PDF, JPEG, PNG, TIFF, GIF, or an Office document)
            steps (list[ActionStep] | Unset): The actions to run on the converted PDF, in order; none: the conversion alone
     """

    file: File
    steps: list[ActionStep] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step import ActionStep # noqa: PLC0415
        file = self.file.to_tuple()


        steps: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.steps, Unset):
            steps = []
            for steps_item_data in self.steps:
                steps_item = steps_item_data.to_dict()
                steps.append(steps_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "file": file,
        })
        if steps is not UNSET:
            field_dict["steps"] = steps

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.action_step import ActionStep # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.steps, Unset):
            for steps_item_element in self.steps:
                files.append(("steps", (None, json.dumps( steps_item_element.to_dict()).encode(), "application/json")))





        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step import ActionStep # noqa: PLC0415
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        _steps = d.pop("steps", UNSET)
        steps: list[ActionStep] | Unset = UNSET
        if _steps is not UNSET:
            steps = []
            for steps_item_data in _steps:
                steps_item = ActionStep.from_dict(steps_item_data)



                steps.append(steps_item)


        convert_one_shot_body = cls(
            file=file,
            steps=steps,
        )


        convert_one_shot_body.additional_properties = d
        return convert_one_shot_body

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
