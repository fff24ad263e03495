from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pipeline_model import PipelineModel
from ...models.pipeline_request import PipelineRequest
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    pipeline_name: str,
    *,
    body: PipelineRequest,
    owner: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    params: dict[str, Any] = {}

    params["owner"] = owner


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/pipelines/{pipeline_name}".format(pipeline_name=quote(str(pipeline_name), safe=""),),
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PipelineModel | Problem | None:
    if response.status_code == 200:
        response_200 = PipelineModel.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = PipelineModel.from_dict(response.json())



        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if 400 <= response.status_code <= 499:
        response_4xx = Problem.from_dict(response.json())



        return response_4xx

    if 500 <= response.status_code <= 599:
        response_5xx = Problem.from_dict(response.json())



        return response_5xx

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PipelineModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: PipelineRequest,
    owner: str | Unset = UNSET,

) -> Response[PipelineModel | Problem]:
    """ Save a pipeline (a new version)

     Every PUT saves a new version: 201 with Location for the first, 200 after; the answer is the version
    as stored (every step's defaults filled in) with its ETag. Each step is checked by its action: 400
    PIPELINE_STEP_INVALID names the first refused step and carries the action's own problem. If-Match
    must name the newest version (412 otherwise), If-None-Match: * that there is none. shared: true
    needs the admin right. Body as JSON or XML <Pipeline>. A pipeline belongs to the user who saved it;
    others see it only when an admin shared it. The request needs its method's right (GET, PUT, DELETE).
    See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        body (PipelineRequest): Pipeline (XML: <Pipeline>, the steps as
            <steps><step><ActionName>…</ActionName></step></steps>) to save as a new version. Each
            step is an action as POST /documents/{filePath}.pdf takes it, without savePath and
            namingMode; it is checked by that action when saved.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PipelineModel | Problem]
     """


    kwargs = _get_kwargs(
        pipeline_name=pipeline_name,
body=body,
owner=owner,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: PipelineRequest,
    owner: str | Unset = UNSET,

) -> PipelineModel | Problem | None:
    """ Save a pipeline (a new version)

     Every PUT saves a new version: 201 with Location for the first, 200 after; the answer is the version
    as stored (every step's defaults filled in) with its ETag. Each step is checked by its action: 400
    PIPELINE_STEP_INVALID names the first refused step and carries the action's own problem. If-Match
    must name the newest version (412 otherwise), If-None-Match: * that there is none. shared: true
    needs the admin right. Body as JSON or XML <Pipeline>. A pipeline belongs to the user who saved it;
    others see it only when an admin shared it. The request needs its method's right (GET, PUT, DELETE).
    See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        body (PipelineRequest): Pipeline (XML: <Pipeline>, the steps as
            <steps><step><ActionName>…</ActionName></step></steps>) to save as a new version. Each
            step is an action as POST /documents/{filePath}.pdf takes it, without savePath and
            namingMode; it is checked by that action when saved.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PipelineModel | Problem
     """


    return sync_detailed(
        pipeline_name=pipeline_name,
client=client,
body=body,
owner=owner,

    ).parsed

async def asyncio_detailed(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: PipelineRequest,
    owner: str | Unset = UNSET,

) -> Response[PipelineModel | Problem]:
    """ Save a pipeline (a new version)

     Every PUT saves a new version: 201 with Location for the first, 200 after; the answer is the version
    as stored (every step's defaults filled in) with its ETag. Each step is checked by its action: 400
    PIPELINE_STEP_INVALID names the first refused step and carries the action's own problem. If-Match
    must name the newest version (412 otherwise), If-None-Match: * that there is none. shared: true
    needs the admin right. Body as JSON or XML <Pipeline>. A pipeline belongs to the user who saved it;
    others see it only when an admin shared it. The request needs its method's right (GET, PUT, DELETE).
    See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        body (PipelineRequest): Pipeline (XML: <Pipeline>, the steps as
            <steps><step><ActionName>…</ActionName></step></steps>) to save as a new version. Each
            step is an action as POST /documents/{filePath}.pdf takes it, without savePath and
            namingMode; it is checked by that action when saved.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PipelineModel | Problem]
     """


    kwargs = _get_kwargs(
        pipeline_name=pipeline_name,
body=body,
owner=owner,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: PipelineRequest,
    owner: str | Unset = UNSET,

) -> PipelineModel | Problem | None:
    """ Save a pipeline (a new version)

     Every PUT saves a new version: 201 with Location for the first, 200 after; the answer is the version
    as stored (every step's defaults filled in) with its ETag. Each step is checked by its action: 400
    PIPELINE_STEP_INVALID names the first refused step and carries the action's own problem. If-Match
    must name the newest version (412 otherwise), If-None-Match: * that there is none. shared: true
    needs the admin right. Body as JSON or XML <Pipeline>. A pipeline belongs to the user who saved it;
    others see it only when an admin shared it. The request needs its method's right (GET, PUT, DELETE).
    See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        body (PipelineRequest): Pipeline (XML: <Pipeline>, the steps as
            <steps><step><ActionName>…</ActionName></step></steps>) to save as a new version. Each
            step is an action as POST /documents/{filePath}.pdf takes it, without savePath and
            namingMode; it is checked by that action when saved.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PipelineModel | Problem
     """


    return (await asyncio_detailed(
        pipeline_name=pipeline_name,
client=client,
body=body,
owner=owner,

    )).parsed
