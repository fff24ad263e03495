from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.annotation_model_flags_item import AnnotationModelFlagsItem
from ..models.annotation_model_reply_type import AnnotationModelReplyType
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.annotation_model_border import AnnotationModelBorder
  from ..models.annotation_model_destination import AnnotationModelDestination
  from ..models.annotation_model_end import AnnotationModelEnd
  from ..models.annotation_model_popup import AnnotationModelPopup
  from ..models.annotation_model_start import AnnotationModelStart
  from ..models.rectangle import Rectangle





T = TypeVar("T", bound="AnnotationModel")



@_attrs_define
class AnnotationModel:
    """ AnnotationModel (XML: <Annotation>). XFDF vocabulary in camelCase; PDF user space coordinates. Only the fields the
    annotation has are present. See docs/annotations.md for the mapping to PDF keys.

        Attributes:
            name (str): The /NM entry, or a generated name starting with "~" when it has none or shares it
            subtype (str): One of Text, Link, FreeText, Line, Square, Circle, Polygon, PolyLine, Highlight, Underline,
                Squiggly, StrikeOut, Caret, Stamp, Ink, Popup, FileAttachment, Sound, Movie, Screen, Widget, PrinterMark,
                TrapNet, Watermark, 3D, Redact, Projection, RichMedia (or a non-standard /Subtype as found)
            page_index (int):
            rectangle (Rectangle | Unset): PDF user space, points, origin at the lower left of the page
            contents (str | Unset):
            contents_rich_text (str | Unset): /RC, XHTML
            author (str | Unset): /T
            subject (str | Unset):
            creation_date (datetime.datetime | Unset):
            modified_date (datetime.datetime | Unset): /M
            color (str | Unset): /C as #RRGGBB (gray and CMYK converted)
            interior_color (str | Unset): /IC
            opacity (float | Unset): /CA
            flags (list[AnnotationModelFlagsItem] | Unset): /F bits by name
            rotation (float | Unset):
            intent (str | Unset): /IT
            border (AnnotationModelBorder | Unset):
            quad_points (list[float] | Unset): Text markup and Redact: 8 numbers per quadrilateral
            ink_list (list[list[float]] | Unset): Ink: one x,y,x,y… array per stroke
            vertices (list[float] | Unset): Polygon, PolyLine: x,y,x,y…
            start (AnnotationModelStart | Unset):
            end (AnnotationModelEnd | Unset):
            line_endings (list[str] | Unset): [start, end] line ending styles
            leader_length (float | Unset):
            leader_extension (float | Unset):
            leader_offset (float | Unset):
            caption (bool | Unset):
            icon (str | Unset): /Name: note, stamp or attachment icon
            open_ (bool | Unset):
            state (str | Unset):
            state_model (str | Unset):
            in_reply_to (str | Unset): Name of the annotation this one replies to (/IRT)
            reply_type (AnnotationModelReplyType | Unset):
            popup (AnnotationModelPopup | Unset):
            parent (str | Unset): Popup: name of the annotation it shows
            default_appearance (str | Unset): FreeText /DA
            default_style (str | Unset): FreeText /DS
            callout (list[float] | Unset):
            overlay_text (str | Unset): Redact
            file_name (str | Unset): FileAttachment
            file_description (str | Unset): FileAttachment
            field_name (str | Unset): Widget: fully qualified field name
            field_type (str | Unset): Widget: /FT (Tx, Btn, Ch, Sig)
            uri (str | Unset): Link with a URI action
            destination (AnnotationModelDestination | Unset):
     """

    name: str
    subtype: str
    page_index: int
    rectangle: Rectangle | Unset = UNSET
    contents: str | Unset = UNSET
    contents_rich_text: str | Unset = UNSET
    author: str | Unset = UNSET
    subject: str | Unset = UNSET
    creation_date: datetime.datetime | Unset = UNSET
    modified_date: datetime.datetime | Unset = UNSET
    color: str | Unset = UNSET
    interior_color: str | Unset = UNSET
    opacity: float | Unset = UNSET
    flags: list[AnnotationModelFlagsItem] | Unset = UNSET
    rotation: float | Unset = UNSET
    intent: str | Unset = UNSET
    border: AnnotationModelBorder | Unset = UNSET
    quad_points: list[float] | Unset = UNSET
    ink_list: list[list[float]] | Unset = UNSET
    vertices: list[float] | Unset = UNSET
    start: AnnotationModelStart | Unset = UNSET
    end: AnnotationModelEnd | Unset = UNSET
    line_endings: list[str] | Unset = UNSET
    leader_length: float | Unset = UNSET
    leader_extension: float | Unset = UNSET
    leader_offset: float | Unset = UNSET
    caption: bool | Unset = UNSET
    icon: str | Unset = UNSET
    open_: bool | Unset = UNSET
    state: str | Unset = UNSET
    state_model: str | Unset = UNSET
    in_reply_to: str | Unset = UNSET
    reply_type: AnnotationModelReplyType | Unset = UNSET
    popup: AnnotationModelPopup | Unset = UNSET
    parent: str | Unset = UNSET
    default_appearance: str | Unset = UNSET
    default_style: str | Unset = UNSET
    callout: list[float] | Unset = UNSET
    overlay_text: str | Unset = UNSET
    file_name: str | Unset = UNSET
    file_description: str | Unset = UNSET
    field_name: str | Unset = UNSET
    field_type: str | Unset = UNSET
    uri: str | Unset = UNSET
    destination: AnnotationModelDestination | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.annotation_model_border import AnnotationModelBorder # noqa: PLC0415
        from ..models.annotation_model_destination import AnnotationModelDestination # noqa: PLC0415
        from ..models.annotation_model_end import AnnotationModelEnd # noqa: PLC0415
        from ..models.annotation_model_popup import AnnotationModelPopup # noqa: PLC0415
        from ..models.annotation_model_start import AnnotationModelStart # noqa: PLC0415
        from ..models.rectangle import Rectangle # noqa: PLC0415
        name = self.name

        subtype = self.subtype

        page_index = self.page_index

        rectangle: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rectangle, Unset):
            rectangle = self.rectangle.to_dict()

        contents = self.contents

        contents_rich_text = self.contents_rich_text

        author = self.author

        subject = self.subject

        creation_date: str | Unset = UNSET
        if not isinstance(self.creation_date, Unset):
            creation_date = self.creation_date.isoformat()

        modified_date: str | Unset = UNSET
        if not isinstance(self.modified_date, Unset):
            modified_date = self.modified_date.isoformat()

        color = self.color

        interior_color = self.interior_color

        opacity = self.opacity

        flags: list[str] | Unset = UNSET
        if not isinstance(self.flags, Unset):
            flags = []
            for flags_item_data in self.flags:
                flags_item = flags_item_data.value
                flags.append(flags_item)



        rotation = self.rotation

        intent = self.intent

        border: dict[str, Any] | Unset = UNSET
        if not isinstance(self.border, Unset):
            border = self.border.to_dict()

        quad_points: list[float] | Unset = UNSET
        if not isinstance(self.quad_points, Unset):
            quad_points = self.quad_points



        ink_list: list[list[float]] | Unset = UNSET
        if not isinstance(self.ink_list, Unset):
            ink_list = []
            for ink_list_item_data in self.ink_list:
                ink_list_item = ink_list_item_data


                ink_list.append(ink_list_item)



        vertices: list[float] | Unset = UNSET
        if not isinstance(self.vertices, Unset):
            vertices = self.vertices



        start: dict[str, Any] | Unset = UNSET
        if not isinstance(self.start, Unset):
            start = self.start.to_dict()

        end: dict[str, Any] | Unset = UNSET
        if not isinstance(self.end, Unset):
            end = self.end.to_dict()

        line_endings: list[str] | Unset = UNSET
        if not isinstance(self.line_endings, Unset):
            line_endings = self.line_endings



        leader_length = self.leader_length

        leader_extension = self.leader_extension

        leader_offset = self.leader_offset

        caption = self.caption

        icon = self.icon

        open_ = self.open_

        state = self.state

        state_model = self.state_model

        in_reply_to = self.in_reply_to

        reply_type: str | Unset = UNSET
        if not isinstance(self.reply_type, Unset):
            reply_type = self.reply_type.value


        popup: dict[str, Any] | Unset = UNSET
        if not isinstance(self.popup, Unset):
            popup = self.popup.to_dict()

        parent = self.parent

        default_appearance = self.default_appearance

        default_style = self.default_style

        callout: list[float] | Unset = UNSET
        if not isinstance(self.callout, Unset):
            callout = self.callout



        overlay_text = self.overlay_text

        file_name = self.file_name

        file_description = self.file_description

        field_name = self.field_name

        field_type = self.field_type

        uri = self.uri

        destination: dict[str, Any] | Unset = UNSET
        if not isinstance(self.destination, Unset):
            destination = self.destination.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "subtype": subtype,
            "pageIndex": page_index,
        })
        if rectangle is not UNSET:
            field_dict["rectangle"] = rectangle
        if contents is not UNSET:
            field_dict["contents"] = contents
        if contents_rich_text is not UNSET:
            field_dict["contentsRichText"] = contents_rich_text
        if author is not UNSET:
            field_dict["author"] = author
        if subject is not UNSET:
            field_dict["subject"] = subject
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modified_date is not UNSET:
            field_dict["modifiedDate"] = modified_date
        if color is not UNSET:
            field_dict["color"] = color
        if interior_color is not UNSET:
            field_dict["interiorColor"] = interior_color
        if opacity is not UNSET:
            field_dict["opacity"] = opacity
        if flags is not UNSET:
            field_dict["flags"] = flags
        if rotation is not UNSET:
            field_dict["rotation"] = rotation
        if intent is not UNSET:
            field_dict["intent"] = intent
        if border is not UNSET:
            field_dict["border"] = border
        if quad_points is not UNSET:
            field_dict["quadPoints"] = quad_points
        if ink_list is not UNSET:
            field_dict["inkList"] = ink_list
        if vertices is not UNSET:
            field_dict["vertices"] = vertices
        if start is not UNSET:
            field_dict["start"] = start
        if end is not UNSET:
            field_dict["end"] = end
        if line_endings is not UNSET:
            field_dict["lineEndings"] = line_endings
        if leader_length is not UNSET:
            field_dict["leaderLength"] = leader_length
        if leader_extension is not UNSET:
            field_dict["leaderExtension"] = leader_extension
        if leader_offset is not UNSET:
            field_dict["leaderOffset"] = leader_offset
        if caption is not UNSET:
            field_dict["caption"] = caption
        if icon is not UNSET:
            field_dict["icon"] = icon
        if open_ is not UNSET:
            field_dict["open"] = open_
        if state is not UNSET:
            field_dict["state"] = state
        if state_model is not UNSET:
            field_dict["stateModel"] = state_model
        if in_reply_to is not UNSET:
            field_dict["inReplyTo"] = in_reply_to
        if reply_type is not UNSET:
            field_dict["replyType"] = reply_type
        if popup is not UNSET:
            field_dict["popup"] = popup
        if parent is not UNSET:
            field_dict["parent"] = parent
        if default_appearance is not UNSET:
            field_dict["defaultAppearance"] = default_appearance
        if default_style is not UNSET:
            field_dict["defaultStyle"] = default_style
        if callout is not UNSET:
            field_dict["callout"] = callout
        if overlay_text is not UNSET:
            field_dict["overlayText"] = overlay_text
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if file_description is not UNSET:
            field_dict["fileDescription"] = file_description
        if field_name is not UNSET:
            field_dict["fieldName"] = field_name
        if field_type is not UNSET:
            field_dict["fieldType"] = field_type
        if uri is not UNSET:
            field_dict["uri"] = uri
        if destination is not UNSET:
            field_dict["destination"] = destination

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.annotation_model_border import AnnotationModelBorder # noqa: PLC0415
        from ..models.annotation_model_destination import AnnotationModelDestination # noqa: PLC0415
        from ..models.annotation_model_end import AnnotationModelEnd # noqa: PLC0415
        from ..models.annotation_model_popup import AnnotationModelPopup # noqa: PLC0415
        from ..models.annotation_model_start import AnnotationModelStart # noqa: PLC0415
        from ..models.rectangle import Rectangle # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        subtype = d.pop("subtype")

        page_index = d.pop("pageIndex")

        _rectangle = d.pop("rectangle", UNSET)
        rectangle: Rectangle | Unset
        if isinstance(_rectangle,  Unset):
            rectangle = UNSET
        else:
            rectangle = Rectangle.from_dict(_rectangle)




        contents = d.pop("contents", UNSET)

        contents_rich_text = d.pop("contentsRichText", UNSET)

        author = d.pop("author", UNSET)

        subject = d.pop("subject", UNSET)

        _creation_date = d.pop("creationDate", UNSET)
        creation_date: datetime.datetime | Unset
        if isinstance(_creation_date,  Unset):
            creation_date = UNSET
        else:
            creation_date = datetime.datetime.fromisoformat(_creation_date)




        _modified_date = d.pop("modifiedDate", UNSET)
        modified_date: datetime.datetime | Unset
        if isinstance(_modified_date,  Unset):
            modified_date = UNSET
        else:
            modified_date = datetime.datetime.fromisoformat(_modified_date)




        color = d.pop("color", UNSET)

        interior_color = d.pop("interiorColor", UNSET)

        opacity = d.pop("opacity", UNSET)

        _flags = d.pop("flags", UNSET)
        flags: list[AnnotationModelFlagsItem] | Unset = UNSET
        if _flags is not UNSET:
            flags = []
            for flags_item_data in _flags:
                flags_item = AnnotationModelFlagsItem(flags_item_data)



                flags.append(flags_item)


        rotation = d.pop("rotation", UNSET)

        intent = d.pop("intent", UNSET)

        _border = d.pop("border", UNSET)
        border: AnnotationModelBorder | Unset
        if isinstance(_border,  Unset):
            border = UNSET
        else:
            border = AnnotationModelBorder.from_dict(_border)




        quad_points = cast(list[float], d.pop("quadPoints", UNSET))


        _ink_list = d.pop("inkList", UNSET)
        ink_list: list[list[float]] | Unset = UNSET
        if _ink_list is not UNSET:
            ink_list = []
            for ink_list_item_data in _ink_list:
                ink_list_item = cast(list[float], ink_list_item_data)

                ink_list.append(ink_list_item)


        vertices = cast(list[float], d.pop("vertices", UNSET))


        _start = d.pop("start", UNSET)
        start: AnnotationModelStart | Unset
        if isinstance(_start,  Unset):
            start = UNSET
        else:
            start = AnnotationModelStart.from_dict(_start)




        _end = d.pop("end", UNSET)
        end: AnnotationModelEnd | Unset
        if isinstance(_end,  Unset):
            end = UNSET
        else:
            end = AnnotationModelEnd.from_dict(_end)




        line_endings = cast(list[str], d.pop("lineEndings", UNSET))


        leader_length = d.pop("leaderLength", UNSET)

        leader_extension = d.pop("leaderExtension", UNSET)

        leader_offset = d.pop("leaderOffset", UNSET)

        caption = d.pop("caption", UNSET)

        icon = d.pop("icon", UNSET)

        open_ = d.pop("open", UNSET)

        state = d.pop("state", UNSET)

        state_model = d.pop("stateModel", UNSET)

        in_reply_to = d.pop("inReplyTo", UNSET)

        _reply_type = d.pop("replyType", UNSET)
        reply_type: AnnotationModelReplyType | Unset
        if isinstance(_reply_type,  Unset):
            reply_type = UNSET
        else:
            reply_type = AnnotationModelReplyType(_reply_type)




        _popup = d.pop("popup", UNSET)
        popup: AnnotationModelPopup | Unset
        if isinstance(_popup,  Unset):
            popup = UNSET
        else:
            popup = AnnotationModelPopup.from_dict(_popup)




        parent = d.pop("parent", UNSET)

        default_appearance = d.pop("defaultAppearance", UNSET)

        default_style = d.pop("defaultStyle", UNSET)

        callout = cast(list[float], d.pop("callout", UNSET))


        overlay_text = d.pop("overlayText", UNSET)

        file_name = d.pop("fileName", UNSET)

        file_description = d.pop("fileDescription", UNSET)

        field_name = d.pop("fieldName", UNSET)

        field_type = d.pop("fieldType", UNSET)

        uri = d.pop("uri", UNSET)

        _destination = d.pop("destination", UNSET)
        destination: AnnotationModelDestination | Unset
        if isinstance(_destination,  Unset):
            destination = UNSET
        else:
            destination = AnnotationModelDestination.from_dict(_destination)




        annotation_model = cls(
            name=name,
            subtype=subtype,
            page_index=page_index,
            rectangle=rectangle,
            contents=contents,
            contents_rich_text=contents_rich_text,
            author=author,
            subject=subject,
            creation_date=creation_date,
            modified_date=modified_date,
            color=color,
            interior_color=interior_color,
            opacity=opacity,
            flags=flags,
            rotation=rotation,
            intent=intent,
            border=border,
            quad_points=quad_points,
            ink_list=ink_list,
            vertices=vertices,
            start=start,
            end=end,
            line_endings=line_endings,
            leader_length=leader_length,
            leader_extension=leader_extension,
            leader_offset=leader_offset,
            caption=caption,
            icon=icon,
            open_=open_,
            state=state,
            state_model=state_model,
            in_reply_to=in_reply_to,
            reply_type=reply_type,
            popup=popup,
            parent=parent,
            default_appearance=default_appearance,
            default_style=default_style,
            callout=callout,
            overlay_text=overlay_text,
            file_name=file_name,
            file_description=file_description,
            field_name=field_name,
            field_type=field_type,
            uri=uri,
            destination=destination,
        )


        annotation_model.additional_properties = d
        return annotation_model

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
