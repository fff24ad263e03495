from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.add_annotation_files_body import AddAnnotationFilesBody
from ...models.annotation_import_result import AnnotationImportResult
from ...models.annotation_model import AnnotationModel
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    body: AddAnnotationFilesBody,
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
        "url": "/pdfservice/v1/documents/{file_path}.pdf/annotations".format(file_path=quote(str(file_path), safe=""),),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AnnotationImportResult | AnnotationModel | Problem | None:
    if response.status_code == 200:
        response_200 = AnnotationImportResult.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = AnnotationModel.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AnnotationImportResult | AnnotationModel | Problem]:
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
    body: AddAnnotationFilesBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[AnnotationImportResult | AnnotationModel | Problem]:
    """ Add a file-attachment annotation (A4); deprecated: import XFDF/FDF (A3)

     multipart/form-data with parts `annotation` (JSON; `subtype` FileAttachment required), `file` (the
    file) and `fileDisposition` (a Content-Disposition-style value such as `attachment;
    filename="report.csv"`, or JSON with fileName, description, mediaType, creationDate,
    modificationDate). The file is embedded with its size, dates, MD5 checksum and media type. 201 with
    Location. With an XFDF or FDF body instead (A3, deprecated, to be removed in a future version): the
    same as POST .../annotations/content, answered with a Deprecation header and a Link to that
    successor.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddAnnotationFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnnotationImportResult | AnnotationModel | Problem]
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
    body: AddAnnotationFilesBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> AnnotationImportResult | AnnotationModel | Problem | None:
    """ Add a file-attachment annotation (A4); deprecated: import XFDF/FDF (A3)

     multipart/form-data with parts `annotation` (JSON; `subtype` FileAttachment required), `file` (the
    file) and `fileDisposition` (a Content-Disposition-style value such as `attachment;
    filename="report.csv"`, or JSON with fileName, description, mediaType, creationDate,
    modificationDate). The file is embedded with its size, dates, MD5 checksum and media type. 201 with
    Location. With an XFDF or FDF body instead (A3, deprecated, to be removed in a future version): the
    same as POST .../annotations/content, answered with a Deprecation header and a Link to that
    successor.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddAnnotationFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnnotationImportResult | AnnotationModel | Problem
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
    body: AddAnnotationFilesBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[AnnotationImportResult | AnnotationModel | Problem]:
    """ Add a file-attachment annotation (A4); deprecated: import XFDF/FDF (A3)

     multipart/form-data with parts `annotation` (JSON; `subtype` FileAttachment required), `file` (the
    file) and `fileDisposition` (a Content-Disposition-style value such as `attachment;
    filename="report.csv"`, or JSON with fileName, description, mediaType, creationDate,
    modificationDate). The file is embedded with its size, dates, MD5 checksum and media type. 201 with
    Location. With an XFDF or FDF body instead (A3, deprecated, to be removed in a future version): the
    same as POST .../annotations/content, answered with a Deprecation header and a Link to that
    successor.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddAnnotationFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnnotationImportResult | AnnotationModel | Problem]
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
    body: AddAnnotationFilesBody,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> AnnotationImportResult | AnnotationModel | Problem | None:
    """ Add a file-attachment annotation (A4); deprecated: import XFDF/FDF (A3)

     multipart/form-data with parts `annotation` (JSON; `subtype` FileAttachment required), `file` (the
    file) and `fileDisposition` (a Content-Disposition-style value such as `attachment;
    filename="report.csv"`, or JSON with fileName, description, mediaType, creationDate,
    modificationDate). The file is embedded with its size, dates, MD5 checksum and media type. 201 with
    Location. With an XFDF or FDF body instead (A3, deprecated, to be removed in a future version): the
    same as POST .../annotations/content, answered with a Deprecation header and a Link to that
    successor.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_match (str | Unset):
        body (AddAnnotationFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnnotationImportResult | AnnotationModel | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_match=if_match,

    )).parsed
