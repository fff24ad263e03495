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
  from ..models.outline_item_children_item import OutlineItemChildrenItem





T = TypeVar("T", bound="OutlineItem")



@_attrs_define
class OutlineItem:
    """ One bookmark. Without destination and uri it leads nowhere (a heading).

        Attributes:
            title (str): Any Unicode text (written as a PDF text string)
            open_ (bool): Whether the item's children show (/Count positive); false for an item without children
            bold (bool): /F bit 2
            italic (bool): /F bit 1
            color (OutlineColor | Unset): The title's colour (/C), RGB components from 0 to 1; absent: black
            destination (OutlineDestination | Unset): A page of the document and the view of it (ISO 32000-1 12.3.2.2).
                Without fit, /Fit is written.
            named_destination (str | Unset): The named destination the destination was resolved from (read only: ignored
                when written)
            uri (str | Unset): A URI action's address (ASCII); not with destination
            action (str | Unset): The type of an action other than GoTo and URI, e.g. JavaScript (read only: ignored when
                written, such an item is written without it)
            children (list[OutlineItemChildrenItem] | Unset): The items below this one, of the same shape (OutlineItem).
                XML: <children><child>..</child></children>
     """

    title: str
    open_: bool
    bold: bool
    italic: bool
    color: OutlineColor | Unset = UNSET
    destination: OutlineDestination | Unset = UNSET
    named_destination: str | Unset = UNSET
    uri: str | Unset = UNSET
    action: str | Unset = UNSET
    children: list[OutlineItemChildrenItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.outline_color import OutlineColor # noqa: PLC0415
        from ..models.outline_destination import OutlineDestination # noqa: PLC0415
        from ..models.outline_item_children_item import OutlineItemChildrenItem # noqa: PLC0415
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
        field_dict.update(self.additional_properties)
        field_dict.update({
            "title": title,
            "open": open_,
            "bold": bold,
            "italic": italic,
        })
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
        from ..models.outline_item_children_item import OutlineItemChildrenItem # noqa: PLC0415
        d = dict(src_dict)
        title = d.pop("title")

        open_ = d.pop("open")

        bold = d.pop("bold")

        italic = d.pop("italic")

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
        children: list[OutlineItemChildrenItem] | Unset = UNSET
        if _children is not UNSET:
            children = []
            for children_item_data in _children:
                children_item = OutlineItemChildrenItem.from_dict(children_item_data)



                children.append(children_item)


        outline_item = cls(
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


        outline_item.additional_properties = d
        return outline_item

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
