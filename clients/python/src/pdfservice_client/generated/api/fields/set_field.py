from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.field_model import FieldModel
from ...models.field_value import FieldValue
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    field_name: str,
    *,
    body: FieldValue,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/fields/{field_name}".format(file_path=quote(str(file_path), safe=""),field_name=quote(str(field_name), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FieldModel | Problem | None:
    if response.status_code == 200:
        response_200 = FieldModel.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FieldModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    field_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: FieldValue,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[FieldModel | Problem]:
    """ Set one field's value

     fieldName is the fully qualified name (URL-encoded). The value is checked as in an import: 404
    FIELD_NOT_FOUND, 409 FIELD_READ_ONLY, 400 naming the values the field allows. Appearances are
    regenerated. Answers the field afterwards.

    Args:
        file_path (str):
        field_name (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FieldValue): The value to set (XML: <Field><value>…</value></Field>; repeat <value>
            for a multi-select list)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FieldModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
field_name=field_name,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    field_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: FieldValue,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> FieldModel | Problem | None:
    """ Set one field's value

     fieldName is the fully qualified name (URL-encoded). The value is checked as in an import: 404
    FIELD_NOT_FOUND, 409 FIELD_READ_ONLY, 400 naming the values the field allows. Appearances are
    regenerated. Answers the field afterwards.

    Args:
        file_path (str):
        field_name (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FieldValue): The value to set (XML: <Field><value>…</value></Field>; repeat <value>
            for a multi-select list)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FieldModel | Problem
     """


    return sync_detailed(
        file_path=file_path,
field_name=field_name,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    field_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: FieldValue,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[FieldModel | Problem]:
    """ Set one field's value

     fieldName is the fully qualified name (URL-encoded). The value is checked as in an import: 404
    FIELD_NOT_FOUND, 409 FIELD_READ_ONLY, 400 naming the values the field allows. Appearances are
    regenerated. Answers the field afterwards.

    Args:
        file_path (str):
        field_name (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FieldValue): The value to set (XML: <Field><value>…</value></Field>; repeat <value>
            for a multi-select list)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FieldModel | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
field_name=field_name,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    field_name: str,
    *,
    client: AuthenticatedClient | Client,
    body: FieldValue,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> FieldModel | Problem | None:
    """ Set one field's value

     fieldName is the fully qualified name (URL-encoded). The value is checked as in an import: 404
    FIELD_NOT_FOUND, 409 FIELD_READ_ONLY, 400 naming the values the field allows. Appearances are
    regenerated. Answers the field afterwards.

    Args:
        file_path (str):
        field_name (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (FieldValue): The value to set (XML: <Field><value>…</value></Field>; repeat <value>
            for a multi-select list)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FieldModel | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
field_name=field_name,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )).parsed
