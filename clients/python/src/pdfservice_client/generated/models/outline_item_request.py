from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.outline_color import OutlineColor
  from ..models.outline_destination import OutlineDestination





T = TypeVar("T", bound="OutlineItemRequest")



@_attrs_define
class OutlineItemRequest:
    """ One bookmark to write. Without destination and uri it leads nowhere (a heading); destination and uri exclude each
    other.

        Attributes:
            title (str): Any Unicode text (written as a PDF text string)
            open_ (bool | Unset): Whether the item's children show (/Count positive); false for an item without children
            bold (bool | Unset): /F bit 2
            italic (bool | Unset): /F bit 1
            color (OutlineColor | Unset): The title's colour (/C), RGB components from 0 to 1; absent: black
            destination (OutlineDestination | Unset): A page of the document and the view of it (ISO 32000-1 12.3.2.2).
                Without fit, /Fit is written.
            named_destination (str | Unset): The named destination the destination was resolved from (read only: ignored
                when written)
            uri (str | Unset): A URI action's address: ASCII without spaces (other characters percent-encoded); not with
                destination
            action (str | Unset): The type of an action other than GoTo and URI, e.g. JavaScript (read only: ignored when
                written, such an item is written without it)
            children (list[OutlineItemRequest] | Unset): The items below this one (XML:
                <children><child>..</child></children>)
     """

    title: str
    open_: bool | Unset = UNSET
    bold: bool | Unset = UNSET
    italic: bool | Unset = UNSET
    color: OutlineColor | Unset = UNSET
    destination: OutlineDestination | Unset = UNSET
    named_destination: str | Unset = UNSET
    uri: str | Unset = UNSET
    action: str | Unset = UNSET
    children: list[OutlineItemRequest] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.outline_color import OutlineColor # noqa: PLC0415
        from ..models.outline_destination import OutlineDestination # noqa: PLC0415
        title = self.title

        open_ = self.open_

        bold = self.bold

        italic = self.italic

        color: dict[str, Any] | Unset = UNSET
        if not isinstance(self.color, Unset):
            color = self.color.to_dict()

        destination: dict[str, Any] | Unset = UNSET
        if not isinstance(self.destination, Unset):
            destination = self.destination.to_dict()

        named_destination = self.named_destination

        uri = self.uri

        action = self.action

        children: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.children, Unset):
            children = []
            for children_item_data in self.children:
                children_item = children_item_data.to_dict()
                children.append(children_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "title": title,
        })
        if open_ is not UNSET:
            field_dict["open"] = open_
        if bold is not UNSET:
            field_dict["bold"] = bold
        if italic is not UNSET:
            field_dict["italic"] = italic
        if color is not UNSET:
            field_dict["color"] = color
        if destination is not UNSET:
            field_dict["destination"] = destination
        if named_destination is not UNSET:
            field_dict["namedDestination"] = named_destination
        if uri is not UNSET:
            field_dict["uri"] = uri
        if action is not UNSET:
            field_dict["action"] = action
        if children is not UNSET:
            field_dict["children"] = children

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.outline_color import OutlineColor # noqa: PLC0415
        from ..models.outline_destination import OutlineDestination # noqa: PLC0415
        d = dict(src_dict)
        title = d.pop("title")

        open_ = d.pop("open", UNSET)

        bold = d.pop("bold", UNSET)

        italic = d.pop("italic", UNSET)

        _color = d.pop("color", UNSET)
        color: OutlineColor | Unset
        if isinstance(_color,  Unset):
            color = UNSET
        else:
            color = OutlineColor.from_dict(_color)




        _destination = d.pop("destination", UNSET)
        destination: OutlineDestination | Unset
        if isinstance(_destination,  Unset):
            destination = UNSET
        else:
            destination = OutlineDestination.from_dict(_destination)




        named_destination = d.pop("namedDestination", UNSET)

        uri = d.pop("uri", UNSET)

        action = d.pop("action", UNSET)

        _children = d.pop("children", UNSET)
        children: list[OutlineItemRequest] | Unset = UNSET
        if _children is not UNSET:
            children = []
            for children_item_data in _children:
                children_item = OutlineItemRequest.from_dict(children_item_data)



                children.append(children_item)


        outline_item_request = cls(
            title=title,
            open_=open_,
            bold=bold,
            italic=italic,
            color=color,
            destination=destination,
            named_destination=named_destination,
            uri=uri,
            action=action,
            children=children,
        )

        return outline_item_request

