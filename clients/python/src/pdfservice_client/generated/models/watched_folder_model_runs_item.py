from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.watched_folder_model_runs_item_state import WatchedFolderModelRunsItemState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.watched_folder_model_runs_item_error import WatchedFolderModelRunsItemError





T = TypeVar("T", bound="WatchedFolderModelRunsItem")



@_attrs_define
class WatchedFolderModelRunsItem:
    """ One arrival's run

        Attributes:
            document (str): The document that arrived
            etag (str): The version that arrived
            state (WatchedFolderModelRunsItemState): queued: its job waits or runs; retrying: an attempt failed, the next
                waits for nextAttempt; succeeded; failed: every attempt failed (or the document changed meanwhile), left alone
            attempts (int):
            job_ids (list[str]): Every attempt's job, oldest first
            started (datetime.datetime): When the arrival was claimed
            job_id (str | Unset): The last attempt's job (GET /jobs/{id})
            ended (datetime.datetime | Unset): When the last attempt ended
            next_attempt (datetime.datetime | Unset):
            output (str | Unset): The document written (absent when the pipeline changed nothing)
            error (WatchedFolderModelRunsItemError | Unset): The last attempt's problem document
     """

    document: str
    etag: str
    state: WatchedFolderModelRunsItemState
    attempts: int
    job_ids: list[str]
    started: datetime.datetime
    job_id: str | Unset = UNSET
    ended: datetime.datetime | Unset = UNSET
    next_attempt: datetime.datetime | Unset = UNSET
    output: str | Unset = UNSET
    error: WatchedFolderModelRunsItemError | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.watched_folder_model_runs_item_error import WatchedFolderModelRunsItemError # noqa: PLC0415
        document = self.document

        etag = self.etag

        state = self.state.value

        attempts = self.attempts

        job_ids = self.job_ids



        started = self.started.isoformat()

        job_id = self.job_id

        ended: str | Unset = UNSET
        if not isinstance(self.ended, Unset):
            ended = self.ended.isoformat()

        next_attempt: str | Unset = UNSET
        if not isinstance(self.next_attempt, Unset):
            next_attempt = self.next_attempt.isoformat()

        output = self.output

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "document": document,
            "etag": etag,
            "state": state,
            "attempts": attempts,
            "jobIds": job_ids,
            "started": started,
        })
        if job_id is not UNSET:
            field_dict["jobId"] = job_id
        if ended is not UNSET:
            field_dict["ended"] = ended
        if next_attempt is not UNSET:
            field_dict["nextAttempt"] = next_attempt
        if output is not UNSET:
            field_dict["output"] = output
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.watched_folder_model_runs_item_error import WatchedFolderModelRunsItemError # noqa: PLC0415
        d = dict(src_dict)
        document = d.pop("document")

        etag = d.pop("etag")

        state = WatchedFolderModelRunsItemState(d.pop("state"))




        attempts = d.pop("attempts")

        job_ids = cast(list[str], d.pop("jobIds"))


        started = datetime.datetime.fromisoformat(d.pop("started"))




        job_id = d.pop("jobId", UNSET)

        _ended = d.pop("ended", UNSET)
        ended: datetime.datetime | Unset
        if isinstance(_ended,  Unset):
            ended = UNSET
        else:
            ended = datetime.datetime.fromisoformat(_ended)




        _next_attempt = d.pop("nextAttempt", UNSET)
        next_attempt: datetime.datetime | Unset
        if isinstance(_next_attempt,  Unset):
            next_attempt = UNSET
        else:
            next_attempt = datetime.datetime.fromisoformat(_next_attempt)




        output = d.pop("output", UNSET)

        _error = d.pop("error", UNSET)
        error: WatchedFolderModelRunsItemError | Unset
        if isinstance(_error,  Unset):
            error = UNSET
        else:
            error = WatchedFolderModelRunsItemError.from_dict(_error)




        watched_folder_model_runs_item = cls(
            document=document,
            etag=etag,
            state=state,
            attempts=attempts,
            job_ids=job_ids,
            started=started,
            job_id=job_id,
            ended=ended,
            next_attempt=next_attempt,
            output=output,
            error=error,
        )


        watched_folder_model_runs_item.additional_properties = d
        return watched_folder_model_runs_item

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
