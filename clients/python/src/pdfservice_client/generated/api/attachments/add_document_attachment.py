from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.add_document_attachment_body import AddDocumentAttachmentBody
from ...models.document_attachment import DocumentAttachment
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    body: AddDocumentAttachmentBody,
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
        "method": "post",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/attachments".format(file_path=quote(str(file_path), safe=""),),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

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
    *,
    client: AuthenticatedClient | Client,
    body: AddDocumentAttachmentBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAttachment | Problem]:
    """ Add an attachment (multipart upload)

     multipart/form-data with the file in part `file` and, optionally, JSON in part `attachment` (name,
    fileName, description, mediaType, relationship, creationDate, modificationDate, replace). The name
    defaults to the file part's file name. A name in use is 409 ATTACHMENT_EXISTS unless replace is
    true; a file larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. The file gets its size, dates, MD5,
    media type and AFRelationship (Unspecified by default), the tree stays sorted, and the catalog's /AF
    lists it. 201 with Location (200 when it replaced one); the ETag is the document's new one.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddDocumentAttachmentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAttachment | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
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
    *,
    client: AuthenticatedClient | Client,
    body: AddDocumentAttachmentBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAttachment | Problem | None:
    """ Add an attachment (multipart upload)

     multipart/form-data with the file in part `file` and, optionally, JSON in part `attachment` (name,
    fileName, description, mediaType, relationship, creationDate, modificationDate, replace). The name
    defaults to the file part's file name. A name in use is 409 ATTACHMENT_EXISTS unless replace is
    true; a file larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. The file gets its size, dates, MD5,
    media type and AFRelationship (Unspecified by default), the tree stays sorted, and the catalog's /AF
    lists it. 201 with Location (200 when it replaced one); the ETag is the document's new one.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddDocumentAttachmentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAttachment | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    body: AddDocumentAttachmentBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAttachment | Problem]:
    """ Add an attachment (multipart upload)

     multipart/form-data with the file in part `file` and, optionally, JSON in part `attachment` (name,
    fileName, description, mediaType, relationship, creationDate, modificationDate, replace). The name
    defaults to the file part's file name. A name in use is 409 ATTACHMENT_EXISTS unless replace is
    true; a file larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. The file gets its size, dates, MD5,
    media type and AFRelationship (Unspecified by default), the tree stays sorted, and the catalog's /AF
    lists it. 201 with Location (200 when it replaced one); the ETag is the document's new one.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddDocumentAttachmentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAttachment | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
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
    *,
    client: AuthenticatedClient | Client,
    body: AddDocumentAttachmentBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAttachment | Problem | None:
    """ Add an attachment (multipart upload)

     multipart/form-data with the file in part `file` and, optionally, JSON in part `attachment` (name,
    fileName, description, mediaType, relationship, creationDate, modificationDate, replace). The name
    defaults to the file part's file name. A name in use is 409 ATTACHMENT_EXISTS unless replace is
    true; a file larger than PDFSERVICE_MAX_UPLOAD_BYTES is 413. The file gets its size, dates, MD5,
    media type and AFRelationship (Unspecified by default), the tree stays sorted, and the catalog's /AF
    lists it. 201 with Location (200 when it replaced one); the ETag is the document's new one.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddDocumentAttachmentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAttachment | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )).parsed
