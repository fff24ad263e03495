from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.dms_account_model import DmsAccountModel
from ...models.problem import Problem
from ...models.set_user_dms_account_json_body import SetUserDmsAccountJsonBody
from typing import cast



def _get_kwargs(
    username: str,
    *,
    body: SetUserDmsAccountJsonBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/users/{username}/dms-account".format(username=quote(str(username), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DmsAccountModel | Problem | None:
    if response.status_code == 200:
        response_200 = DmsAccountModel.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = DmsAccountModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DmsAccountModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    username: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetUserDmsAccountJsonBody,

) -> Response[DmsAccountModel | Problem]:
    """ Map a user to a DMS account

     With PDFSERVICE_WEBDAV_AUTH=mapped: the user acts at the document server as this account (sessions,
    HTTP Basic and API tokens alike). The DMS is asked first: 422 DMS_ACCOUNT_REJECTED when it refuses
    the name and password, 503 DMS_UNAVAILABLE when it cannot be reached. Stored encrypted (AES-256-GCM,
    PDFSERVICE_SECRETS_KEY); applies from the user's next request. 201 for a new mapping, 200 for a
    replaced one. Body as JSON or XML <DmsAccount>. 409 DMS_ACCOUNTS_NOT_USED in other modes.

    Args:
        username (str):
        body (SetUserDmsAccountJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DmsAccountModel | Problem]
     """


    kwargs = _get_kwargs(
        username=username,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    username: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetUserDmsAccountJsonBody,

) -> DmsAccountModel | Problem | None:
    """ Map a user to a DMS account

     With PDFSERVICE_WEBDAV_AUTH=mapped: the user acts at the document server as this account (sessions,
    HTTP Basic and API tokens alike). The DMS is asked first: 422 DMS_ACCOUNT_REJECTED when it refuses
    the name and password, 503 DMS_UNAVAILABLE when it cannot be reached. Stored encrypted (AES-256-GCM,
    PDFSERVICE_SECRETS_KEY); applies from the user's next request. 201 for a new mapping, 200 for a
    replaced one. Body as JSON or XML <DmsAccount>. 409 DMS_ACCOUNTS_NOT_USED in other modes.

    Args:
        username (str):
        body (SetUserDmsAccountJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DmsAccountModel | Problem
     """


    return sync_detailed(
        username=username,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    username: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetUserDmsAccountJsonBody,

) -> Response[DmsAccountModel | Problem]:
    """ Map a user to a DMS account

     With PDFSERVICE_WEBDAV_AUTH=mapped: the user acts at the document server as this account (sessions,
    HTTP Basic and API tokens alike). The DMS is asked first: 422 DMS_ACCOUNT_REJECTED when it refuses
    the name and password, 503 DMS_UNAVAILABLE when it cannot be reached. Stored encrypted (AES-256-GCM,
    PDFSERVICE_SECRETS_KEY); applies from the user's next request. 201 for a new mapping, 200 for a
    replaced one. Body as JSON or XML <DmsAccount>. 409 DMS_ACCOUNTS_NOT_USED in other modes.

    Args:
        username (str):
        body (SetUserDmsAccountJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DmsAccountModel | Problem]
     """


    kwargs = _get_kwargs(
        username=username,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    username: str,
    *,
    client: AuthenticatedClient | Client,
    body: SetUserDmsAccountJsonBody,

) -> DmsAccountModel | Problem | None:
    """ Map a user to a DMS account

     With PDFSERVICE_WEBDAV_AUTH=mapped: the user acts at the document server as this account (sessions,
    HTTP Basic and API tokens alike). The DMS is asked first: 422 DMS_ACCOUNT_REJECTED when it refuses
    the name and password, 503 DMS_UNAVAILABLE when it cannot be reached. Stored encrypted (AES-256-GCM,
    PDFSERVICE_SECRETS_KEY); applies from the user's next request. 201 for a new mapping, 200 for a
    replaced one. Body as JSON or XML <DmsAccount>. 409 DMS_ACCOUNTS_NOT_USED in other modes.

    Args:
        username (str):
        body (SetUserDmsAccountJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DmsAccountModel | Problem
     """


    return (await asyncio_detailed(
        username=username,
client=client,
body=body,

    )).parsed
