from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.login_json_credentials import LoginJsonCredentials
from ...models.problem import Problem
from ...models.session_model import SessionModel
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: LoginJsonCredentials | None | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/sessions",
    }

    
    if isinstance(body, LoginJsonCredentials):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SessionModel | None:
    if response.status_code == 201:
        response_201 = SessionModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SessionModel]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: LoginJsonCredentials | None | Unset = UNSET,

) -> Response[Problem | SessionModel]:
    """ Log in

     Checks the credentials and opens a session: 201, the SESSIONID cookie (HttpOnly, SameSite=Lax,
    Path=/pdfservice, Secure when configured or when the request came over TLS (directly or through a
    trusted proxy), Max-Age = the absolute session lifetime), Location of the current session, and the
    SessionModel. Wrong credentials are 401 INVALID_CREDENTIALS; after repeated failures for a user name
    or from an address, 429 with Retry-After. A login from a page of another site (its Origin neither
    this service nor in PDFSERVICE_CORS_ORIGINS) is 403 CROSS_SITE_REQUEST: no page may sign a visitor
    in under an account of its choosing. A state-changing request with the cookie is held to the same
    rule.

    Args:
        body (LoginJsonCredentials | None | Unset): Credentials as JSON {"username","password"} or
            XML <Session><username/><password/></Session>. Leave the body out to log in with
            Authorization: Basic instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionModel]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: LoginJsonCredentials | None | Unset = UNSET,

) -> Problem | SessionModel | None:
    """ Log in

     Checks the credentials and opens a session: 201, the SESSIONID cookie (HttpOnly, SameSite=Lax,
    Path=/pdfservice, Secure when configured or when the request came over TLS (directly or through a
    trusted proxy), Max-Age = the absolute session lifetime), Location of the current session, and the
    SessionModel. Wrong credentials are 401 INVALID_CREDENTIALS; after repeated failures for a user name
    or from an address, 429 with Retry-After. A login from a page of another site (its Origin neither
    this service nor in PDFSERVICE_CORS_ORIGINS) is 403 CROSS_SITE_REQUEST: no page may sign a visitor
    in under an account of its choosing. A state-changing request with the cookie is held to the same
    rule.

    Args:
        body (LoginJsonCredentials | None | Unset): Credentials as JSON {"username","password"} or
            XML <Session><username/><password/></Session>. Leave the body out to log in with
            Authorization: Basic instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionModel
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: LoginJsonCredentials | None | Unset = UNSET,

) -> Response[Problem | SessionModel]:
    """ Log in

     Checks the credentials and opens a session: 201, the SESSIONID cookie (HttpOnly, SameSite=Lax,
    Path=/pdfservice, Secure when configured or when the request came over TLS (directly or through a
    trusted proxy), Max-Age = the absolute session lifetime), Location of the current session, and the
    SessionModel. Wrong credentials are 401 INVALID_CREDENTIALS; after repeated failures for a user name
    or from an address, 429 with Retry-After. A login from a page of another site (its Origin neither
    this service nor in PDFSERVICE_CORS_ORIGINS) is 403 CROSS_SITE_REQUEST: no page may sign a visitor
    in under an account of its choosing. A state-changing request with the cookie is held to the same
    rule.

    Args:
        body (LoginJsonCredentials | None | Unset): Credentials as JSON {"username","password"} or
            XML <Session><username/><password/></Session>. Leave the body out to log in with
            Authorization: Basic instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SessionModel]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: LoginJsonCredentials | None | Unset = UNSET,

) -> Problem | SessionModel | None:
    """ Log in

     Checks the credentials and opens a session: 201, the SESSIONID cookie (HttpOnly, SameSite=Lax,
    Path=/pdfservice, Secure when configured or when the request came over TLS (directly or through a
    trusted proxy), Max-Age = the absolute session lifetime), Location of the current session, and the
    SessionModel. Wrong credentials are 401 INVALID_CREDENTIALS; after repeated failures for a user name
    or from an address, 429 with Retry-After. A login from a page of another site (its Origin neither
    this service nor in PDFSERVICE_CORS_ORIGINS) is 403 CROSS_SITE_REQUEST: no page may sign a visitor
    in under an account of its choosing. A state-changing request with the cookie is held to the same
    rule.

    Args:
        body (LoginJsonCredentials | None | Unset): Credentials as JSON {"username","password"} or
            XML <Session><username/><password/></Session>. Leave the body out to log in with
            Authorization: Basic instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SessionModel
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
