from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pipeline_model import PipelineModel
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    pipeline_name: str,
    *,
    owner: str | Unset = UNSET,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    params: dict[str, Any] = {}

    params["owner"] = owner

    params["version"] = version


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/pipelines/{pipeline_name}".format(pipeline_name=quote(str(pipeline_name), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | PipelineModel | Problem | None:
    if response.status_code == 200:
        response_200 = PipelineModel.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | PipelineModel | Problem]:
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
    owner: str | Unset = UNSET,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | PipelineModel | Problem]:
    """ Get a pipeline

     The newest version, or ?version=N; ETag names the version (If-None-Match: 304). 404
    PIPELINE_NOT_FOUND when there is none the caller may see. A pipeline belongs to the user who saved
    it; others see it only when an admin shared it. The request needs its method's right (GET, PUT,
    DELETE). See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PipelineModel | Problem]
     """


    kwargs = _get_kwargs(
        pipeline_name=pipeline_name,
owner=owner,
version=version,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | PipelineModel | Problem | None:
    """ Get a pipeline

     The newest version, or ?version=N; ETag names the version (If-None-Match: 304). 404
    PIPELINE_NOT_FOUND when there is none the caller may see. A pipeline belongs to the user who saved
    it; others see it only when an admin shared it. The request needs its method's right (GET, PUT,
    DELETE). See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PipelineModel | Problem
     """


    return sync_detailed(
        pipeline_name=pipeline_name,
client=client,
owner=owner,
version=version,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | PipelineModel | Problem]:
    """ Get a pipeline

     The newest version, or ?version=N; ETag names the version (If-None-Match: 304). 404
    PIPELINE_NOT_FOUND when there is none the caller may see. A pipeline belongs to the user who saved
    it; others see it only when an admin shared it. The request needs its method's right (GET, PUT,
    DELETE). See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PipelineModel | Problem]
     """


    kwargs = _get_kwargs(
        pipeline_name=pipeline_name,
owner=owner,
version=version,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    pipeline_name: str,
    *,
    client: AuthenticatedClient | Client,
    owner: str | Unset = UNSET,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | PipelineModel | Problem | None:
    """ Get a pipeline

     The newest version, or ?version=N; ETag names the version (If-None-Match: 304). 404
    PIPELINE_NOT_FOUND when there is none the caller may see. A pipeline belongs to the user who saved
    it; others see it only when an admin shared it. The request needs its method's right (GET, PUT,
    DELETE). See docs/pipelines.md.

    Args:
        pipeline_name (str):
        owner (str | Unset):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PipelineModel | Problem
     """


    return (await asyncio_detailed(
        pipeline_name=pipeline_name,
client=client,
owner=owner,
version=version,
if_none_match=if_none_match,

    )).parsed
