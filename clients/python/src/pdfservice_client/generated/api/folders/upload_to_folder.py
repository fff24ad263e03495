from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.document_model import DocumentModel
from ...models.folder_model import FolderModel
from ...models.job import Job
from ...models.problem import Problem
from ...models.upload_to_folder_files_body import UploadToFolderFilesBody
from ...models.upload_to_folder_json_body import UploadToFolderJsonBody
from ...models.upload_to_folder_media import UploadToFolderMedia
from ...models.upload_to_folder_naming_mode import UploadToFolderNamingMode
from ...models.upload_to_folder_paper_size import UploadToFolderPaperSize
from ...models.upload_to_folder_pdfa import UploadToFolderPdfa
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    folder_path: str,
    *,
    body:    UploadToFolderFilesBody  |     UploadToFolderJsonBody  | Unset = UNSET,
    naming_mode: UploadToFolderNamingMode | Unset = UploadToFolderNamingMode.VALUE_0,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: UploadToFolderPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    paper_size: UploadToFolderPaperSize | Unset = UNSET,
    width: str | Unset = UNSET,
    height: str | Unset = UNSET,
    margin_top: str | Unset = UNSET,
    margin_right: str | Unset = UNSET,
    margin_bottom: str | Unset = UNSET,
    margin_left: str | Unset = UNSET,
    scale: float | Unset = UNSET,
    print_background: bool | Unset = UNSET,
    prefer_css_page_size: bool | Unset = UNSET,
    header_template: str | Unset = UNSET,
    footer_template: str | Unset = UNSET,
    media: UploadToFolderMedia | Unset = UNSET,
    wait_for_selector: str | Unset = UNSET,
    wait_for_expression: str | Unset = UNSET,
    wait_delay: int | Unset = UNSET,
    javascript: bool | Unset = UNSET,
    title: str | Unset = UNSET,
    author: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    keywords: str | Unset = UNSET,
    language: str | Unset = UNSET,
    alt: str | Unset = UNSET,
    outline: bool | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(prefer, Unset):
        headers["prefer"] = prefer

    if not isinstance(x_service_webhook_url, Unset):
        headers["x-service-webhook-url"] = x_service_webhook_url



    

    params: dict[str, Any] = {}

    json_naming_mode: int | Unset = UNSET
    if not isinstance(naming_mode, Unset):
        json_naming_mode = naming_mode.value

    params["namingMode"] = json_naming_mode

    params["pageRange"] = page_range

    params["landscape"] = landscape

    params["sheet"] = sheet

    params["notesPages"] = notes_pages

    json_pdfa: str | Unset = UNSET
    if not isinstance(pdfa, Unset):
        json_pdfa = pdfa.value

    params["pdfa"] = json_pdfa

    params["tagged"] = tagged

    json_paper_size: str | Unset = UNSET
    if not isinstance(paper_size, Unset):
        json_paper_size = paper_size.value

    params["paperSize"] = json_paper_size

    params["width"] = width

    params["height"] = height

    params["marginTop"] = margin_top

    params["marginRight"] = margin_right

    params["marginBottom"] = margin_bottom

    params["marginLeft"] = margin_left

    params["scale"] = scale

    params["printBackground"] = print_background

    params["preferCssPageSize"] = prefer_css_page_size

    params["headerTemplate"] = header_template

    params["footerTemplate"] = footer_template

    json_media: str | Unset = UNSET
    if not isinstance(media, Unset):
        json_media = media.value

    params["media"] = json_media

    params["waitForSelector"] = wait_for_selector

    params["waitForExpression"] = wait_for_expression

    params["waitDelay"] = wait_delay

    params["javascript"] = javascript

    params["title"] = title

    params["author"] = author

    params["subject"] = subject

    params["keywords"] = keywords

    params["language"] = language

    params["alt"] = alt

    params["outline"] = outline


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/documents/{folder_path}".format(folder_path=quote(str(folder_path), safe=""),),
        "params": params,
    }

    if isinstance(body, UploadToFolderFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"
    if isinstance(body, UploadToFolderJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentModel | FolderModel | Job | Problem | None:
    if response.status_code == 201:
        def _parse_response_201(data: object) -> DocumentModel | FolderModel:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = DocumentModel.from_dict(data)



                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = FolderModel.from_dict(data)



            return response_201_type_1

        response_201 = _parse_response_201(response.json())

        return response_201

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DocumentModel | FolderModel | Job | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    UploadToFolderFilesBody  |     UploadToFolderJsonBody  | Unset = UNSET,
    naming_mode: UploadToFolderNamingMode | Unset = UploadToFolderNamingMode.VALUE_0,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: UploadToFolderPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    paper_size: UploadToFolderPaperSize | Unset = UNSET,
    width: str | Unset = UNSET,
    height: str | Unset = UNSET,
    margin_top: str | Unset = UNSET,
    margin_right: str | Unset = UNSET,
    margin_bottom: str | Unset = UNSET,
    margin_left: str | Unset = UNSET,
    scale: float | Unset = UNSET,
    print_background: bool | Unset = UNSET,
    prefer_css_page_size: bool | Unset = UNSET,
    header_template: str | Unset = UNSET,
    footer_template: str | Unset = UNSET,
    media: UploadToFolderMedia | Unset = UNSET,
    wait_for_selector: str | Unset = UNSET,
    wait_for_expression: str | Unset = UNSET,
    wait_delay: int | Unset = UNSET,
    javascript: bool | Unset = UNSET,
    title: str | Unset = UNSET,
    author: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    keywords: str | Unset = UNSET,
    language: str | Unset = UNSET,
    alt: str | Unset = UNSET,
    outline: bool | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Response[DocumentModel | FolderModel | Job | Problem]:
    """ Upload a PDF, image or Office document into a folder by form, or move the folder

     multipart/form-data with the file in a part named `file`; it is stored under its own file name (an
    image or Office document becomes "<name>.pdf"). A JSON (or XML) body instead is an action on the
    folder: {"MoveAction": {"savePath": "new/path"}} moves it with everything in it (201 with Location
    and the FolderModel at its new path; docs/move.md). An Office document is recognised by its part
    type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query
    options (pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). namingMode decides what
    happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as
    a background job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes
    any upload a job.

    Args:
        folder_path (str):
        naming_mode (UploadToFolderNamingMode | Unset):  Default:
            UploadToFolderNamingMode.VALUE_0.
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (UploadToFolderPdfa | Unset):
        tagged (bool | Unset):
        paper_size (UploadToFolderPaperSize | Unset):
        width (str | Unset):
        height (str | Unset):
        margin_top (str | Unset):
        margin_right (str | Unset):
        margin_bottom (str | Unset):
        margin_left (str | Unset):
        scale (float | Unset):
        print_background (bool | Unset):
        prefer_css_page_size (bool | Unset):
        header_template (str | Unset):
        footer_template (str | Unset):
        media (UploadToFolderMedia | Unset):
        wait_for_selector (str | Unset):
        wait_for_expression (str | Unset):
        wait_delay (int | Unset):
        javascript (bool | Unset):
        title (str | Unset):
        author (str | Unset):
        subject (str | Unset):
        keywords (str | Unset):
        language (str | Unset):
        alt (str | Unset):
        outline (bool | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (UploadToFolderFilesBody):
        body (UploadToFolderJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | FolderModel | Job | Problem]
     """


    kwargs = _get_kwargs(
        folder_path=folder_path,
body=body,
naming_mode=naming_mode,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
paper_size=paper_size,
width=width,
height=height,
margin_top=margin_top,
margin_right=margin_right,
margin_bottom=margin_bottom,
margin_left=margin_left,
scale=scale,
print_background=print_background,
prefer_css_page_size=prefer_css_page_size,
header_template=header_template,
footer_template=footer_template,
media=media,
wait_for_selector=wait_for_selector,
wait_for_expression=wait_for_expression,
wait_delay=wait_delay,
javascript=javascript,
title=title,
author=author,
subject=subject,
keywords=keywords,
language=language,
alt=alt,
outline=outline,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    UploadToFolderFilesBody  |     UploadToFolderJsonBody  | Unset = UNSET,
    naming_mode: UploadToFolderNamingMode | Unset = UploadToFolderNamingMode.VALUE_0,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: UploadToFolderPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    paper_size: UploadToFolderPaperSize | Unset = UNSET,
    width: str | Unset = UNSET,
    height: str | Unset = UNSET,
    margin_top: str | Unset = UNSET,
    margin_right: str | Unset = UNSET,
    margin_bottom: str | Unset = UNSET,
    margin_left: str | Unset = UNSET,
    scale: float | Unset = UNSET,
    print_background: bool | Unset = UNSET,
    prefer_css_page_size: bool | Unset = UNSET,
    header_template: str | Unset = UNSET,
    footer_template: str | Unset = UNSET,
    media: UploadToFolderMedia | Unset = UNSET,
    wait_for_selector: str | Unset = UNSET,
    wait_for_expression: str | Unset = UNSET,
    wait_delay: int | Unset = UNSET,
    javascript: bool | Unset = UNSET,
    title: str | Unset = UNSET,
    author: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    keywords: str | Unset = UNSET,
    language: str | Unset = UNSET,
    alt: str | Unset = UNSET,
    outline: bool | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> DocumentModel | FolderModel | Job | Problem | None:
    """ Upload a PDF, image or Office document into a folder by form, or move the folder

     multipart/form-data with the file in a part named `file`; it is stored under its own file name (an
    image or Office document becomes "<name>.pdf"). A JSON (or XML) body instead is an action on the
    folder: {"MoveAction": {"savePath": "new/path"}} moves it with everything in it (201 with Location
    and the FolderModel at its new path; docs/move.md). An Office document is recognised by its part
    type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query
    options (pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). namingMode decides what
    happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as
    a background job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes
    any upload a job.

    Args:
        folder_path (str):
        naming_mode (UploadToFolderNamingMode | Unset):  Default:
            UploadToFolderNamingMode.VALUE_0.
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (UploadToFolderPdfa | Unset):
        tagged (bool | Unset):
        paper_size (UploadToFolderPaperSize | Unset):
        width (str | Unset):
        height (str | Unset):
        margin_top (str | Unset):
        margin_right (str | Unset):
        margin_bottom (str | Unset):
        margin_left (str | Unset):
        scale (float | Unset):
        print_background (bool | Unset):
        prefer_css_page_size (bool | Unset):
        header_template (str | Unset):
        footer_template (str | Unset):
        media (UploadToFolderMedia | Unset):
        wait_for_selector (str | Unset):
        wait_for_expression (str | Unset):
        wait_delay (int | Unset):
        javascript (bool | Unset):
        title (str | Unset):
        author (str | Unset):
        subject (str | Unset):
        keywords (str | Unset):
        language (str | Unset):
        alt (str | Unset):
        outline (bool | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (UploadToFolderFilesBody):
        body (UploadToFolderJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | FolderModel | Job | Problem
     """


    return sync_detailed(
        folder_path=folder_path,
client=client,
body=body,
naming_mode=naming_mode,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
paper_size=paper_size,
width=width,
height=height,
margin_top=margin_top,
margin_right=margin_right,
margin_bottom=margin_bottom,
margin_left=margin_left,
scale=scale,
print_background=print_background,
prefer_css_page_size=prefer_css_page_size,
header_template=header_template,
footer_template=footer_template,
media=media,
wait_for_selector=wait_for_selector,
wait_for_expression=wait_for_expression,
wait_delay=wait_delay,
javascript=javascript,
title=title,
author=author,
subject=subject,
keywords=keywords,
language=language,
alt=alt,
outline=outline,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    ).parsed

async def asyncio_detailed(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    UploadToFolderFilesBody  |     UploadToFolderJsonBody  | Unset = UNSET,
    naming_mode: UploadToFolderNamingMode | Unset = UploadToFolderNamingMode.VALUE_0,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: UploadToFolderPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    paper_size: UploadToFolderPaperSize | Unset = UNSET,
    width: str | Unset = UNSET,
    height: str | Unset = UNSET,
    margin_top: str | Unset = UNSET,
    margin_right: str | Unset = UNSET,
    margin_bottom: str | Unset = UNSET,
    margin_left: str | Unset = UNSET,
    scale: float | Unset = UNSET,
    print_background: bool | Unset = UNSET,
    prefer_css_page_size: bool | Unset = UNSET,
    header_template: str | Unset = UNSET,
    footer_template: str | Unset = UNSET,
    media: UploadToFolderMedia | Unset = UNSET,
    wait_for_selector: str | Unset = UNSET,
    wait_for_expression: str | Unset = UNSET,
    wait_delay: int | Unset = UNSET,
    javascript: bool | Unset = UNSET,
    title: str | Unset = UNSET,
    author: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    keywords: str | Unset = UNSET,
    language: str | Unset = UNSET,
    alt: str | Unset = UNSET,
    outline: bool | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> Response[DocumentModel | FolderModel | Job | Problem]:
    """ Upload a PDF, image or Office document into a folder by form, or move the folder

     multipart/form-data with the file in a part named `file`; it is stored under its own file name (an
    image or Office document becomes "<name>.pdf"). A JSON (or XML) body instead is an action on the
    folder: {"MoveAction": {"savePath": "new/path"}} moves it with everything in it (201 with Location
    and the FolderModel at its new path; docs/move.md). An Office document is recognised by its part
    type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query
    options (pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). namingMode decides what
    happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as
    a background job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes
    any upload a job.

    Args:
        folder_path (str):
        naming_mode (UploadToFolderNamingMode | Unset):  Default:
            UploadToFolderNamingMode.VALUE_0.
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (UploadToFolderPdfa | Unset):
        tagged (bool | Unset):
        paper_size (UploadToFolderPaperSize | Unset):
        width (str | Unset):
        height (str | Unset):
        margin_top (str | Unset):
        margin_right (str | Unset):
        margin_bottom (str | Unset):
        margin_left (str | Unset):
        scale (float | Unset):
        print_background (bool | Unset):
        prefer_css_page_size (bool | Unset):
        header_template (str | Unset):
        footer_template (str | Unset):
        media (UploadToFolderMedia | Unset):
        wait_for_selector (str | Unset):
        wait_for_expression (str | Unset):
        wait_delay (int | Unset):
        javascript (bool | Unset):
        title (str | Unset):
        author (str | Unset):
        subject (str | Unset):
        keywords (str | Unset):
        language (str | Unset):
        alt (str | Unset):
        outline (bool | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (UploadToFolderFilesBody):
        body (UploadToFolderJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | FolderModel | Job | Problem]
     """


    kwargs = _get_kwargs(
        folder_path=folder_path,
body=body,
naming_mode=naming_mode,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
paper_size=paper_size,
width=width,
height=height,
margin_top=margin_top,
margin_right=margin_right,
margin_bottom=margin_bottom,
margin_left=margin_left,
scale=scale,
print_background=print_background,
prefer_css_page_size=prefer_css_page_size,
header_template=header_template,
footer_template=footer_template,
media=media,
wait_for_selector=wait_for_selector,
wait_for_expression=wait_for_expression,
wait_delay=wait_delay,
javascript=javascript,
title=title,
author=author,
subject=subject,
keywords=keywords,
language=language,
alt=alt,
outline=outline,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    folder_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    UploadToFolderFilesBody  |     UploadToFolderJsonBody  | Unset = UNSET,
    naming_mode: UploadToFolderNamingMode | Unset = UploadToFolderNamingMode.VALUE_0,
    page_range: str | Unset = UNSET,
    landscape: bool | Unset = UNSET,
    sheet: int | Unset = UNSET,
    notes_pages: bool | Unset = UNSET,
    pdfa: UploadToFolderPdfa | Unset = UNSET,
    tagged: bool | Unset = UNSET,
    paper_size: UploadToFolderPaperSize | Unset = UNSET,
    width: str | Unset = UNSET,
    height: str | Unset = UNSET,
    margin_top: str | Unset = UNSET,
    margin_right: str | Unset = UNSET,
    margin_bottom: str | Unset = UNSET,
    margin_left: str | Unset = UNSET,
    scale: float | Unset = UNSET,
    print_background: bool | Unset = UNSET,
    prefer_css_page_size: bool | Unset = UNSET,
    header_template: str | Unset = UNSET,
    footer_template: str | Unset = UNSET,
    media: UploadToFolderMedia | Unset = UNSET,
    wait_for_selector: str | Unset = UNSET,
    wait_for_expression: str | Unset = UNSET,
    wait_delay: int | Unset = UNSET,
    javascript: bool | Unset = UNSET,
    title: str | Unset = UNSET,
    author: str | Unset = UNSET,
    subject: str | Unset = UNSET,
    keywords: str | Unset = UNSET,
    language: str | Unset = UNSET,
    alt: str | Unset = UNSET,
    outline: bool | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,

) -> DocumentModel | FolderModel | Job | Problem | None:
    """ Upload a PDF, image or Office document into a folder by form, or move the folder

     multipart/form-data with the file in a part named `file`; it is stored under its own file name (an
    image or Office document becomes "<name>.pdf"). A JSON (or XML) body instead is an action on the
    folder: {"MoveAction": {"savePath": "new/path"}} moves it with everything in it (201 with Location
    and the FolderModel at its new path; docs/move.md). An Office document is recognised by its part
    type, its name (.docx, .xlsx, .odp, .csv...) or its content, converted by LibreOffice with the query
    options (pageRange, landscape, sheet, notesPages, pdfa; docs/office.md). namingMode decides what
    happens when the name exists. 201 with Location and the DocumentModel. An Office conversion runs as
    a background job (202 and the Job) unless Prefer: wait=N asks to wait; Prefer: respond-async makes
    any upload a job.

    Args:
        folder_path (str):
        naming_mode (UploadToFolderNamingMode | Unset):  Default:
            UploadToFolderNamingMode.VALUE_0.
        page_range (str | Unset):
        landscape (bool | Unset):
        sheet (int | Unset):
        notes_pages (bool | Unset):
        pdfa (UploadToFolderPdfa | Unset):
        tagged (bool | Unset):
        paper_size (UploadToFolderPaperSize | Unset):
        width (str | Unset):
        height (str | Unset):
        margin_top (str | Unset):
        margin_right (str | Unset):
        margin_bottom (str | Unset):
        margin_left (str | Unset):
        scale (float | Unset):
        print_background (bool | Unset):
        prefer_css_page_size (bool | Unset):
        header_template (str | Unset):
        footer_template (str | Unset):
        media (UploadToFolderMedia | Unset):
        wait_for_selector (str | Unset):
        wait_for_expression (str | Unset):
        wait_delay (int | Unset):
        javascript (bool | Unset):
        title (str | Unset):
        author (str | Unset):
        subject (str | Unset):
        keywords (str | Unset):
        language (str | Unset):
        alt (str | Unset):
        outline (bool | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        body (UploadToFolderFilesBody):
        body (UploadToFolderJsonBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | FolderModel | Job | Problem
     """


    return (await asyncio_detailed(
        folder_path=folder_path,
client=client,
body=body,
naming_mode=naming_mode,
page_range=page_range,
landscape=landscape,
sheet=sheet,
notes_pages=notes_pages,
pdfa=pdfa,
tagged=tagged,
paper_size=paper_size,
width=width,
height=height,
margin_top=margin_top,
margin_right=margin_right,
margin_bottom=margin_bottom,
margin_left=margin_left,
scale=scale,
print_background=print_background,
prefer_css_page_size=prefer_css_page_size,
header_template=header_template,
footer_template=footer_template,
media=media,
wait_for_selector=wait_for_selector,
wait_for_expression=wait_for_expression,
wait_delay=wait_delay,
javascript=javascript,
title=title,
author=author,
subject=subject,
keywords=keywords,
language=language,
alt=alt,
outline=outline,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,

    )).parsed
