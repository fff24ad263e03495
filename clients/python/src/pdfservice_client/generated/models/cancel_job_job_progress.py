from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.cancel_job_job_progress_step import CancelJobJobProgressStep





T = TypeVar("T", bound="CancelJobJobProgress")



@_attrs_define
class CancelJobJobProgress:
    """ 
        Attributes:
            done (int):
            unit (str):
            percent (int): Never lower than an earlier report
            total (int | Unset):
            phase (str | Unset):
            step (CancelJobJobProgressStep | Unset): A pipeline's job (docs/pipelines.md): the step running, from 1, of
                count, and its action; done, total and unit are that step's own progress, percent the whole pipeline's
     """

    done: int
    unit: str
    percent: int
    total: int | Unset = UNSET
    phase: str | Unset = UNSET
    step: CancelJobJobProgressStep | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cancel_job_job_progress_step import CancelJobJobProgressStep # noqa: PLC0415
        done = self.done

        unit = self.unit

        percent = self.percent

        total = self.total

        phase = self.phase

        step: dict[str, Any] | Unset = UNSET
        if not isinstance(self.step, Unset):
            step = self.step.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "done": done,
            "unit": unit,
            "percent": percent,
        })
        if total is not UNSET:
            field_dict["total"] = total
        if phase is not UNSET:
            field_dict["phase"] = phase
        if step is not UNSET:
            field_dict["step"] = step

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cancel_job_job_progress_step import CancelJobJobProgressStep # noqa: PLC0415
        d = dict(src_dict)
        done = d.pop("done")

        unit = d.pop("unit")

        percent = d.pop("percent")

        total = d.pop("total", UNSET)

        phase = d.pop("phase", UNSET)

        _step = d.pop("step", UNSET)
        step: CancelJobJobProgressStep | Unset
        if isinstance(_step,  Unset):
            step = UNSET
        else:
            step = CancelJobJobProgressStep.from_dict(_step)




        cancel_job_job_progress = cls(
            done=done,
            unit=unit,
            percent=percent,
            total=total,
            phase=phase,
            step=step,
        )


        cancel_job_job_progress.additional_properties = d
        return cancel_job_job_progress

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
