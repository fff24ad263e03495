from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_jobs_response_200_job_state import ListJobsResponse200JobState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.list_jobs_response_200_job_error import ListJobsResponse200JobError
  from ..models.list_jobs_response_200_job_progress import ListJobsResponse200JobProgress
  from ..models.list_jobs_response_200_job_result import ListJobsResponse200JobResult
  from ..models.list_jobs_response_200_job_webhook import ListJobsResponse200JobWebhook





T = TypeVar("T", bound="ListJobsResponse200Job")



@_attrs_define
class ListJobsResponse200Job:
    """ A background job (docs/jobs.md)

        Attributes:
            id (str):
            action (str): The action's name
            document (str): The document it works on, as folder/name.pdf
            owner (None | str):
            state (ListJobsResponse200JobState):
            progress (ListJobsResponse200JobProgress):
            created (datetime.datetime):
            base (str | Unset): A compare's base, as folder/name.pdf (the document itself when two of its versions are
                compared)
            started (datetime.datetime | Unset):
            finished (datetime.datetime | Unset):
            position (int | Unset): A queued job's place in the queue (0: next)
            reason (str | Unset): Why the job was interrupted
            result (ListJobsResponse200JobResult | Unset): A succeeded job: the written document and the status the inline
                request would have answered, or the file it produced (an export, a compare: with the document it was read from;
                a one-shot conversion: no path, no document)
            webhook (ListJobsResponse200JobWebhook | Unset): The URL the job's end is POSTed to (X-Service-Webhook-Url,
                docs/webhooks.md) and the delivery log; not in the webhook's own body
            error (ListJobsResponse200JobError | Unset): A failed or cancelled job: the problem the inline request would
                have answered (docs/errors.md)
     """

    id: str
    action: str
    document: str
    owner: None | str
    state: ListJobsResponse200JobState
    progress: ListJobsResponse200JobProgress
    created: datetime.datetime
    base: str | Unset = UNSET
    started: datetime.datetime | Unset = UNSET
    finished: datetime.datetime | Unset = UNSET
    position: int | Unset = UNSET
    reason: str | Unset = UNSET
    result: ListJobsResponse200JobResult | Unset = UNSET
    webhook: ListJobsResponse200JobWebhook | Unset = UNSET
    error: ListJobsResponse200JobError | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_jobs_response_200_job_error import ListJobsResponse200JobError # noqa: PLC0415
        from ..models.list_jobs_response_200_job_progress import ListJobsResponse200JobProgress # noqa: PLC0415
        from ..models.list_jobs_response_200_job_result import ListJobsResponse200JobResult # noqa: PLC0415
        from ..models.list_jobs_response_200_job_webhook import ListJobsResponse200JobWebhook # noqa: PLC0415
        id = self.id

        action = self.action

        document = self.document

        owner: None | str
        owner = self.owner

        state = self.state.value

        progress = self.progress.to_dict()

        created = self.created.isoformat()

        base = self.base

        started: str | Unset = UNSET
        if not isinstance(self.started, Unset):
            started = self.started.isoformat()

        finished: str | Unset = UNSET
        if not isinstance(self.finished, Unset):
            finished = self.finished.isoformat()

        position = self.position

        reason = self.reason

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "action": action,
            "document": document,
            "owner": owner,
            "state": state,
            "progress": progress,
            "created": created,
        })
        if base is not UNSET:
            field_dict["base"] = base
        if started is not UNSET:
            field_dict["started"] = started
        if finished is not UNSET:
            field_dict["finished"] = finished
        if position is not UNSET:
            field_dict["position"] = position
        if reason is not UNSET:
            field_dict["reason"] = reason
        if result is not UNSET:
            field_dict["result"] = result
        if webhook is not UNSET:
            field_dict["webhook"] = webhook
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_jobs_response_200_job_error import ListJobsResponse200JobError # noqa: PLC0415
        from ..models.list_jobs_response_200_job_progress import ListJobsResponse200JobProgress # noqa: PLC0415
        from ..models.list_jobs_response_200_job_result import ListJobsResponse200JobResult # noqa: PLC0415
        from ..models.list_jobs_response_200_job_webhook import ListJobsResponse200JobWebhook # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        action = d.pop("action")

        document = d.pop("document")

        def _parse_owner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner = _parse_owner(d.pop("owner"))


        state = ListJobsResponse200JobState(d.pop("state"))




        progress = ListJobsResponse200JobProgress.from_dict(d.pop("progress"))




        created = datetime.datetime.fromisoformat(d.pop("created"))




        base = d.pop("base", UNSET)

        _started = d.pop("started", UNSET)
        started: datetime.datetime | Unset
        if isinstance(_started,  Unset):
            started = UNSET
        else:
            started = datetime.datetime.fromisoformat(_started)




        _finished = d.pop("finished", UNSET)
        finished: datetime.datetime | Unset
        if isinstance(_finished,  Unset):
            finished = UNSET
        else:
            finished = datetime.datetime.fromisoformat(_finished)




        position = d.pop("position", UNSET)

        reason = d.pop("reason", UNSET)

        _result = d.pop("result", UNSET)
        result: ListJobsResponse200JobResult | Unset
        if isinstance(_result,  Unset):
            result = UNSET
        else:
            result = ListJobsResponse200JobResult.from_dict(_result)




        _webhook = d.pop("webhook", UNSET)
        webhook: ListJobsResponse200JobWebhook | Unset
        if isinstance(_webhook,  Unset):
            webhook = UNSET
        else:
            webhook = ListJobsResponse200JobWebhook.from_dict(_webhook)




        _error = d.pop("error", UNSET)
        error: ListJobsResponse200JobError | Unset
        if isinstance(_error,  Unset):
            error = UNSET
        else:
            error = ListJobsResponse200JobError.from_dict(_error)




        list_jobs_response_200_job = cls(
            id=id,
            action=action,
            document=document,
            owner=owner,
            state=state,
            progress=progress,
            created=created,
            base=base,
            started=started,
            finished=finished,
            position=position,
            reason=reason,
            result=result,
            webhook=webhook,
            error=error,
        )


        list_jobs_response_200_job.additional_properties = d
        return list_jobs_response_200_job

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
