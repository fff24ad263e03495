from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.field_model_type import FieldModelType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.field_model_options_item import FieldModelOptionsItem
  from ..models.field_model_widgets_item import FieldModelWidgetsItem





T = TypeVar("T", bound="FieldModel")



@_attrs_define
class FieldModel:
    """ FieldModel (XML: <Field>): one terminal field

        Attributes:
            name (str): Fully qualified name (partial names joined by ".")
            type_ (FieldModelType):
            read_only (bool):
            required (bool):
            no_export (bool):
            widgets (list[FieldModelWidgetsItem]):
            value (list[str] | str | Unset): Text; a button's state ("Off" when off); a combo box's export value; a list
                box's selected export values (always an array, single-select too). Absent for push buttons and signatures.
            default_value (list[str] | str | Unset): /DV, what a reset restores; absent when there is none
            options (list[FieldModelOptionsItem] | Unset): Choices: export value and display text of each option. Checkboxes
                and radio buttons: each on-state (displayText) with the value it exports (exportValue).
            multiline (bool | Unset):
            password (bool | Unset):
            comb (bool | Unset):
            max_length (int | Unset):
            multi_select (bool | Unset):
            editable (bool | Unset): A combo box that also takes text of its own
            signed (bool | Unset): Signature fields: a signature is in it
            tooltip (str | Unset): /TU
     """

    name: str
    type_: FieldModelType
    read_only: bool
    required: bool
    no_export: bool
    widgets: list[FieldModelWidgetsItem]
    value: list[str] | str | Unset = UNSET
    default_value: list[str] | str | Unset = UNSET
    options: list[FieldModelOptionsItem] | Unset = UNSET
    multiline: bool | Unset = UNSET
    password: bool | Unset = UNSET
    comb: bool | Unset = UNSET
    max_length: int | Unset = UNSET
    multi_select: bool | Unset = UNSET
    editable: bool | Unset = UNSET
    signed: bool | Unset = UNSET
    tooltip: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.field_model_options_item import FieldModelOptionsItem # noqa: PLC0415
        from ..models.field_model_widgets_item import FieldModelWidgetsItem # noqa: PLC0415
        name = self.name

        type_ = self.type_.value

        read_only = self.read_only

        required = self.required

        no_export = self.no_export

        widgets = []
        for widgets_item_data in self.widgets:
            widgets_item = widgets_item_data.to_dict()
            widgets.append(widgets_item)



        value: list[str] | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        elif isinstance(self.value, list):
            value = self.value


        else:
            value = self.value

        default_value: list[str] | str | Unset
        if isinstance(self.default_value, Unset):
            default_value = UNSET
        elif isinstance(self.default_value, list):
            default_value = self.default_value


        else:
            default_value = self.default_value

        options: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = []
            for options_item_data in self.options:
                options_item = options_item_data.to_dict()
                options.append(options_item)



        multiline = self.multiline

        password = self.password

        comb = self.comb

        max_length = self.max_length

        multi_select = self.multi_select

        editable = self.editable

        signed = self.signed

        tooltip = self.tooltip


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "type": type_,
            "readOnly": read_only,
            "required": required,
            "noExport": no_export,
            "widgets": widgets,
        })
        if value is not UNSET:
            field_dict["value"] = value
        if default_value is not UNSET:
            field_dict["defaultValue"] = default_value
        if options is not UNSET:
            field_dict["options"] = options
        if multiline is not UNSET:
            field_dict["multiline"] = multiline
        if password is not UNSET:
            field_dict["password"] = password
        if comb is not UNSET:
            field_dict["comb"] = comb
        if max_length is not UNSET:
            field_dict["maxLength"] = max_length
        if multi_select is not UNSET:
            field_dict["multiSelect"] = multi_select
        if editable is not UNSET:
            field_dict["editable"] = editable
        if signed is not UNSET:
            field_dict["signed"] = signed
        if tooltip is not UNSET:
            field_dict["tooltip"] = tooltip

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_model_options_item import FieldModelOptionsItem # noqa: PLC0415
        from ..models.field_model_widgets_item import FieldModelWidgetsItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        type_ = FieldModelType(d.pop("type"))




        read_only = d.pop("readOnly")

        required = d.pop("required")

        no_export = d.pop("noExport")

        widgets = []
        _widgets = d.pop("widgets")
        for widgets_item_data in (_widgets):
            widgets_item = FieldModelWidgetsItem.from_dict(widgets_item_data)



            widgets.append(widgets_item)


        def _parse_value(data: object) -> list[str] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                value_type_1 = cast(list[str], data)

                return value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str | Unset, data)

        value = _parse_value(d.pop("value", UNSET))


        def _parse_default_value(data: object) -> list[str] | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                default_value_type_1 = cast(list[str], data)

                return default_value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str | Unset, data)

        default_value = _parse_default_value(d.pop("defaultValue", UNSET))


        _options = d.pop("options", UNSET)
        options: list[FieldModelOptionsItem] | Unset = UNSET
        if _options is not UNSET:
            options = []
            for options_item_data in _options:
                options_item = FieldModelOptionsItem.from_dict(options_item_data)



                options.append(options_item)


        multiline = d.pop("multiline", UNSET)

        password = d.pop("password", UNSET)

        comb = d.pop("comb", UNSET)

        max_length = d.pop("maxLength", UNSET)

        multi_select = d.pop("multiSelect", UNSET)

        editable = d.pop("editable", UNSET)

        signed = d.pop("signed", UNSET)

        tooltip = d.pop("tooltip", UNSET)

        field_model = cls(
            name=name,
            type_=type_,
            read_only=read_only,
            required=required,
            no_export=no_export,
            widgets=widgets,
            value=value,
            default_value=default_value,
            options=options,
            multiline=multiline,
            password=password,
            comb=comb,
            max_length=max_length,
            multi_select=multi_select,
            editable=editable,
            signed=signed,
            tooltip=tooltip,
        )


        field_model.additional_properties = d
        return field_model

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
