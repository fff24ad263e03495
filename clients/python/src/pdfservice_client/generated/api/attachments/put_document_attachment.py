from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.document_attachment import DocumentAttachment
from ...models.problem import Problem
from ...models.put_document_attachment_relationship import PutDocumentAttachmentRelationship
from ...types import File, FileTypes
from ...types import UNSET, Unset
from io import BytesIO
from typing import cast



def _get_kwargs(
    file_path: str,
    name: str,
    *,
    body: File,
    file_name: str | Unset = UNSET,
    description: str | Unset = UNSET,
    media_type: str | Unset = UNSET,
    relationship: PutDocumentAttachmentRelationship | Unset = UNSET,
    creation_date: str | Unset = UNSET,
    modification_date: str | Unset = UNSET,
    replace: bool | Unset = False,
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



    

    params: dict[str, Any] = {}

    params["fileName"] = file_name

    params["description"] = description

    params["mediaType"] = media_type

    json_relationship: str | Unset = UNSET
    if not isinstance(relationship, Unset):
        json_relationship = relationship.value

    params["relationship"] = json_relationship

    params["creationDate"] = creation_date

    params["modificationDate"] = modification_date

    params["replace"] = replace


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/attachments/{name}".format(file_path=quote(str(file_path), safe=""),name=quote(str(name), safe=""),),
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentAttachment | Problem | None:
    if response.status_code == 200:
        response_200 = DocumentAttachment.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = DocumentAttachment.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DocumentAttachment | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
    file_name: str | Unset = UNSET,
    description: str | Unset = UNSET,
    media_type: str | Unset = UNSET,
    relationship: PutDocumentAttachmentRelationship | Unset = UNSET,
    creation_date: str | Unset = UNSET,
    modification_date: str | Unset = UNSET,
    replace: bool | Unset = False,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAttachment | Problem]:
    """ Add an attachment (raw body)

     The body is the file (application/octet-stream, or application/pdf or an image type for such a
    file); the query says what the multipart form's `attachment` part would. A name in use is 409
    ATTACHMENT_EXISTS unless replace=true; a body larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. 201
    with Location (200 when it replaced one).

    Args:
        file_path (str):
        name (str):
        file_name (str | Unset):
        description (str | Unset):
        media_type (str | Unset):
        relationship (PutDocumentAttachmentRelationship | Unset):
        creation_date (str | Unset):
        modification_date (str | Unset):
        replace (bool | Unset):  Default: False.
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (File): The file (may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAttachment | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
name=name,
body=body,
file_name=file_name,
description=description,
media_type=media_type,
relationship=relationship,
creation_date=creation_date,
modification_date=modification_date,
replace=replace,
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
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
    file_name: str | Unset = UNSET,
    description: str | Unset = UNSET,
    media_type: str | Unset = UNSET,
    relationship: PutDocumentAttachmentRelationship | Unset = UNSET,
    creation_date: str | Unset = UNSET,
    modification_date: str | Unset = UNSET,
    replace: bool | Unset = False,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAttachment | Problem | None:
    """ Add an attachment (raw body)

     The body is the file (application/octet-stream, or application/pdf or an image type for such a
    file); the query says what the multipart form's `attachment` part would. A name in use is 409
    ATTACHMENT_EXISTS unless replace=true; a body larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. 201
    with Location (200 when it replaced one).

    Args:
        file_path (str):
        name (str):
        file_name (str | Unset):
        description (str | Unset):
        media_type (str | Unset):
        relationship (PutDocumentAttachmentRelationship | Unset):
        creation_date (str | Unset):
        modification_date (str | Unset):
        replace (bool | Unset):  Default: False.
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (File): The file (may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAttachment | Problem
     """


    return sync_detailed(
        file_path=file_path,
name=name,
client=client,
body=body,
file_name=file_name,
description=description,
media_type=media_type,
relationship=relationship,
creation_date=creation_date,
modification_date=modification_date,
replace=replace,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
    file_name: str | Unset = UNSET,
    description: str | Unset = UNSET,
    media_type: str | Unset = UNSET,
    relationship: PutDocumentAttachmentRelationship | Unset = UNSET,
    creation_date: str | Unset = UNSET,
    modification_date: str | Unset = UNSET,
    replace: bool | Unset = False,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAttachment | Problem]:
    """ Add an attachment (raw body)

     The body is the file (application/octet-stream, or application/pdf or an image type for such a
    file); the query says what the multipart form's `attachment` part would. A name in use is 409
    ATTACHMENT_EXISTS unless replace=true; a body larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. 201
    with Location (200 when it replaced one).

    Args:
        file_path (str):
        name (str):
        file_name (str | Unset):
        description (str | Unset):
        media_type (str | Unset):
        relationship (PutDocumentAttachmentRelationship | Unset):
        creation_date (str | Unset):
        modification_date (str | Unset):
        replace (bool | Unset):  Default: False.
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (File): The file (may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAttachment | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
name=name,
body=body,
file_name=file_name,
description=description,
media_type=media_type,
relationship=relationship,
creation_date=creation_date,
modification_date=modification_date,
replace=replace,
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
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
    file_name: str | Unset = UNSET,
    description: str | Unset = UNSET,
    media_type: str | Unset = UNSET,
    relationship: PutDocumentAttachmentRelationship | Unset = UNSET,
    creation_date: str | Unset = UNSET,
    modification_date: str | Unset = UNSET,
    replace: bool | Unset = False,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAttachment | Problem | None:
    """ Add an attachment (raw body)

     The body is the file (application/octet-stream, or application/pdf or an image type for such a
    file); the query says what the multipart form's `attachment` part would. A name in use is 409
    ATTACHMENT_EXISTS unless replace=true; a body larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. 201
    with Location (200 when it replaced one).

    Args:
        file_path (str):
        name (str):
        file_name (str | Unset):
        description (str | Unset):
        media_type (str | Unset):
        relationship (PutDocumentAttachmentRelationship | Unset):
        creation_date (str | Unset):
        modification_date (str | Unset):
        replace (bool | Unset):  Default: False.
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (File): The file (may be empty)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAttachment | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
name=name,
client=client,
body=body,
file_name=file_name,
description=description,
media_type=media_type,
relationship=relationship,
creation_date=creation_date,
modification_date=modification_date,
replace=replace,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )).parsed
