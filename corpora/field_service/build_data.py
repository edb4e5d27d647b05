"""Write the field-service data files from the domain defined here.

Run ``python -m corpora.field_service.build_data`` to regenerate ``catalog.json``,
``tickets.jsonl``, ``parts.json``, ``stock.json`` and ``manual.jsonl`` beside this module. The
output is deterministic (a fixed seed, sorted keys), and a test checks that the committed files
are exactly what this script writes, so edit the domain here and regenerate, never the files.

The domain: three product families, each sold as three variants (suffix A, B or S), thirteen
fault codes with the symptoms that point to them, a ticket history, a parts catalogue with stock,
and service-manual passages. Deliberate gaps, which the flow has to handle:

* four pairs of fault codes share a symptom (``shared``), and the ticket history records that
  symptom, word for word, against both codes of the pair on every variant, so a request that
  only describes the shared symptom cannot tell the two apart;
* F-107 and F-113 have no manual passage in any family;
* no part fixes F-104 on AC-250-S or AC-400-S (the sea-coast fan motor is not catalogued) and no
  part fixes F-112 on HP-120-B.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent
SEED = 2502

FAMILIES: dict[str, str] = {
    "AC-250": "wall-mounted split air conditioner, 2.5 kW",
    "AC-400": "ducted split air conditioner, 4.0 kW",
    "HP-120": "air-to-water heat pump, 12 kW",
}
SUFFIXES: dict[str, str] = {
    "A": "standard build",
    "B": "low-ambient build (extended outdoor range, its own inverter and control board)",
    "S": "sea-coast build (coated coil, sealed fan motor, marine-grade fasteners)",
}
AC = ("AC-250", "AC-400")
ALL = ("AC-250", "AC-400", "HP-120")

# Symptom groups shared by two fault codes: the same complaint, two different root causes.
SHARED: dict[str, list[str]] = {
    "iced_coil": [
        "ice building up on the coil and poor output",
        "coil iced over and the unit gives poor output",
        "frost on the coil, output poor",
    ],
    "hum_no_start": [
        "outdoor unit hums but the compressor never starts",
        "compressor hums and will not start",
        "humming from the outdoor unit, compressor not starting",
    ],
    "water_leak": [
        "water leaking from the indoor unit",
        "water dripping from the indoor unit",
        "puddle of water under the indoor unit",
    ],
    "flow_error": [
        "flow error E9 and the heat pump shuts down",
        "heat pump stops with flow error E9",
        "E9 flow error, heat pump stops",
    ],
}

FAULTS: list[dict[str, Any]] = [
    {
        "code": "F-101",
        "name": "refrigerant leak at a flare or brazed joint",
        "families": list(ALL),
        "shared": "iced_coil",
        "symptoms": [
            "hissing sound near the service valves",
            "oily residue on the flare joint",
            "suction pressure low and dropping again after a top-up",
            "leak detector alarms at the flare nut",
            "bubbles in a soap test at the brazed joint",
        ],
        "repair": "find the leak, replace the flare joint, pressure-test and recharge",
    },
    {
        "code": "F-102",
        "name": "compressor run capacitor failed",
        "families": list(ALL),
        "shared": "hum_no_start",
        "symptoms": [
            "capacitor case swollen",
            "capacitance measured well below its rating",
            "compressor starts when a spare capacitor is clipped in",
            "burnt smell at the capacitor terminals",
            "capacitor top bulging",
        ],
        "repair": "discharge and replace the run capacitor, check compressor current draw",
    },
    {
        "code": "F-103",
        "name": "compressor contactor worn",
        "families": list(ALL),
        "shared": "hum_no_start",
        "symptoms": [
            "contactor contacts pitted and burnt",
            "contactor chatters when the thermostat calls",
            "contactor coil pulls in but no voltage on the load side",
            "buzzing contactor in the electrical box",
            "contactor welded closed",
        ],
        "repair": "isolate, replace the contactor, torque the terminals and check the coil voltage",
    },
    {
        "code": "F-104",
        "name": "outdoor fan motor failed",
        "families": list(ALL),
        "shared": None,
        "symptoms": [
            "outdoor fan not spinning",
            "fan blade turns freely by hand but the motor stays still",
            "trips on high head pressure after a few minutes",
            "fan motor windings open circuit",
            "fan motor stopped and too hot to touch",
        ],
        "repair": "replace the outdoor fan motor and check the fan blade for balance",
    },
    {
        "code": "F-105",
        "name": "indoor blower motor bearing worn",
        "families": list(AC),
        "shared": None,
        "symptoms": [
            "squealing noise from the blower",
            "grinding noise that rises with fan speed",
            "weak airflow from the vents",
            "blower wheel wobbles on the shaft",
            "bearing noise at start-up",
        ],
        "repair": "replace the blower motor, re-seat the wheel and balance-check at full speed",
    },
    {
        "code": "F-106",
        "name": "control board communication fault",
        "families": list(ALL),
        "shared": None,
        "symptoms": [
            "display shows communication error E5",
            "indoor and outdoor sections not communicating",
            "ignores the remote control",
            "board LED blinking in a fault pattern",
            "dead on power-up although the supply voltage is fine",
        ],
        "repair": "check the interconnect cable, then replace the control board for the variant",
    },
    {
        "code": "F-107",
        "name": "coil thermistor failed",
        "families": list(ALL),
        "shared": None,
        "symptoms": [
            "short cycling every few minutes",
            "display shows thermistor error E3",
            "thermistor resistance reads open",
            "coil temperature reading stuck at minus 30",
            "stops and restarts before reaching set point",
        ],
        "repair": "replace the coil thermistor and clip it back onto the coil pipe",
    },
    {
        "code": "F-108",
        "name": "electronic expansion valve stuck",
        "families": list(ALL),
        "shared": "iced_coil",
        "symptoms": [
            "expansion valve coil clicks but the valve does not move",
            "superheat very high while the charge is correct",
            "no change in pressures when the EEV is driven open",
            "expansion valve body cold on one side only",
            "EEV stepper coil resistance out of range",
        ],
        "repair": "replace the expansion valve body and stepper coil, then re-check superheat",
    },
    {
        "code": "F-109",
        "name": "condensate pump failed",
        "families": list(AC),
        "shared": "water_leak",
        "symptoms": [
            "condensate pump not running",
            "pump float alarm lit",
            "no hum from the condensate pump",
            "pump reservoir full to the brim",
            "safety float switch cuts the unit out",
        ],
        "repair": "replace the condensate pump and test the float switch cut-out",
    },
    {
        "code": "F-110",
        "name": "condensate drain line blocked",
        "families": list(AC),
        "shared": "water_leak",
        "symptoms": [
            "slime in the drain pan",
            "drain hose blocked with algae",
            "gurgling from the drain pipe",
            "trap clogged with sludge",
            "drain pan overflowing after a long run",
        ],
        "repair": "flush the drain line, fit a new trap and treat the pan against algae",
    },
    {
        "code": "F-111",
        "name": "heating circulation pump seized",
        "families": ["HP-120"],
        "shared": "flow_error",
        "symptoms": [
            "circulation pump silent and its housing hot",
            "circulation pump shaft seized",
            "no water movement in the heating circuit",
            "pump rotor stuck after the summer",
            "radiators stay cold",
        ],
        "repair": "replace the circulation pump, bleed the circuit and check the system pressure",
    },
    {
        "code": "F-112",
        "name": "four-way reversing valve stuck",
        "families": list(ALL),
        "shared": None,
        "symptoms": [
            "will not switch into heating mode",
            "reversing valve does not shift",
            "four-way valve solenoid energised but nothing changes",
            "stays in cooling when heating is selected",
            "both lines at the reversing valve at the same temperature",
        ],
        "repair": "replace the reversing valve (brazed) and its solenoid, then leak-test",
    },
    {
        "code": "F-113",
        "name": "water flow sensor faulty",
        "families": ["HP-120"],
        "shared": "flow_error",
        "symptoms": [
            "sensor reads zero while the pump runs",
            "sensor connector corroded",
            "sensor reading jumps randomly",
            "sensor paddle stuck",
            "differential pressure fine but the sensor shows nothing",
        ],
        "repair": "replace the flow sensor and its connector",
    },
]

_SUPPLIERS = {
    "warehouse": "stocked: central warehouse, ships the same day",
    "distributor": "local distributor (Nordcool Supply), next-day courier",
    "oem": "OEM order only (Kestrel Climate), shipped from the factory",
}

# (part_no, name, fits, fault fixed, sourcing key). Fits are explicit variant names.
PARTS: list[tuple[str, str, list[str], str, str]] = [
    (
        "PN-31170",
        "flare joint repair kit 1/4-3/8",
        ["AC-250-A", "AC-250-B", "AC-250-S"],
        "F-101",
        "warehouse",
    ),
    (
        "PN-31184",
        "flare joint repair kit 3/8-5/8",
        ["AC-400-A", "AC-400-B", "AC-400-S"],
        "F-101",
        "warehouse",
    ),
    (
        "PN-31196",
        "brazed joint repair kit, heat pump",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-101",
        "distributor",
    ),
    ("PN-42035", "run capacitor 35 uF", ["AC-250-A", "AC-250-B", "AC-250-S"], "F-102", "warehouse"),
    ("PN-42045", "run capacitor 45 uF", ["AC-400-A", "AC-400-B", "AC-400-S"], "F-102", "warehouse"),
    (
        "PN-42060",
        "run capacitor 60 uF",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-102",
        "distributor",
    ),
    (
        "PN-42311",
        "compressor contactor 2-pole 25 A",
        ["AC-250-A", "AC-250-B", "AC-250-S", "AC-400-A", "AC-400-B", "AC-400-S"],
        "F-103",
        "warehouse",
    ),
    (
        "PN-42340",
        "compressor contactor 3-pole 40 A",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-103",
        "distributor",
    ),
    ("PN-55102", "outdoor fan motor 60 W", ["AC-250-A", "AC-250-B"], "F-104", "warehouse"),
    ("PN-55140", "outdoor fan motor 90 W", ["AC-400-A", "AC-400-B"], "F-104", "distributor"),
    (
        "PN-55188",
        "outdoor fan motor 150 W, sealed",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-104",
        "oem",
    ),
    (
        "PN-56020",
        "indoor blower motor, wall unit",
        ["AC-250-A", "AC-250-B", "AC-250-S"],
        "F-105",
        "warehouse",
    ),
    (
        "PN-56044",
        "indoor blower motor, ducted unit",
        ["AC-400-A", "AC-400-B", "AC-400-S"],
        "F-105",
        "distributor",
    ),
    ("PN-61250", "control board AC-250 standard", ["AC-250-A", "AC-250-S"], "F-106", "oem"),
    ("PN-61251", "control board AC-250 low-ambient", ["AC-250-B"], "F-106", "oem"),
    ("PN-61400", "control board AC-400 standard", ["AC-400-A", "AC-400-S"], "F-106", "oem"),
    ("PN-61401", "control board AC-400 low-ambient", ["AC-400-B"], "F-106", "oem"),
    ("PN-61120", "control board HP-120 standard", ["HP-120-A", "HP-120-S"], "F-106", "oem"),
    ("PN-61121", "control board HP-120 low-ambient", ["HP-120-B"], "F-106", "oem"),
    (
        "PN-70010",
        "coil thermistor 10 kOhm",
        [
            "AC-250-A",
            "AC-250-B",
            "AC-250-S",
            "AC-400-A",
            "AC-400-B",
            "AC-400-S",
            "HP-120-A",
            "HP-120-B",
            "HP-120-S",
        ],
        "F-107",
        "warehouse",
    ),
    (
        "PN-73025",
        "expansion valve with stepper coil, small",
        ["AC-250-A", "AC-250-B", "AC-250-S"],
        "F-108",
        "distributor",
    ),
    (
        "PN-73040",
        "expansion valve with stepper coil, medium",
        ["AC-400-A", "AC-400-B", "AC-400-S"],
        "F-108",
        "distributor",
    ),
    (
        "PN-73120",
        "expansion valve with stepper coil, large",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-108",
        "oem",
    ),
    (
        "PN-80150",
        "condensate pump 15 l/h",
        ["AC-250-A", "AC-250-B", "AC-250-S", "AC-400-A", "AC-400-B", "AC-400-S"],
        "F-109",
        "warehouse",
    ),
    (
        "PN-80310",
        "drain trap and flush kit",
        ["AC-250-A", "AC-250-B", "AC-250-S", "AC-400-A", "AC-400-B", "AC-400-S"],
        "F-110",
        "warehouse",
    ),
    (
        "PN-84060",
        "heating circulation pump 6 m head",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-111",
        "distributor",
    ),
    (
        "PN-88025",
        "reversing valve assembly, small",
        ["AC-250-A", "AC-250-B", "AC-250-S"],
        "F-112",
        "distributor",
    ),
    (
        "PN-88040",
        "reversing valve assembly, medium",
        ["AC-400-A", "AC-400-B", "AC-400-S"],
        "F-112",
        "distributor",
    ),
    ("PN-88120", "reversing valve assembly, large", ["HP-120-A", "HP-120-S"], "F-112", "oem"),
    (
        "PN-91120",
        "water flow sensor with connector",
        ["HP-120-A", "HP-120-B", "HP-120-S"],
        "F-113",
        "distributor",
    ),
]

# part_no -> (quantity on hand, lead time in days when it has to be ordered)
STOCK: dict[str, tuple[int, int]] = {
    "PN-31170": (14, 2),
    "PN-31184": (9, 2),
    "PN-31196": (3, 4),
    "PN-42035": (40, 1),
    "PN-42045": (22, 1),
    "PN-42060": (0, 6),
    "PN-42311": (31, 1),
    "PN-42340": (4, 5),
    "PN-55102": (6, 3),
    "PN-55140": (0, 10),
    "PN-55188": (1, 21),
    "PN-56020": (8, 3),
    "PN-56044": (2, 7),
    "PN-61250": (2, 14),
    "PN-61251": (0, 28),
    "PN-61400": (1, 14),
    "PN-61401": (0, 28),
    "PN-61120": (1, 18),
    "PN-61121": (0, 35),
    "PN-70010": (55, 1),
    "PN-73025": (5, 4),
    "PN-73040": (3, 4),
    "PN-73120": (0, 21),
    "PN-80150": (17, 2),
    "PN-80310": (26, 1),
    "PN-84060": (2, 6),
    "PN-88025": (1, 9),
    "PN-88040": (0, 12),
    "PN-88120": (0, 30),
    "PN-91120": (7, 3),
}

MANUALS: dict[str, str] = {
    "AC-250": "AC-250 Service Manual, rev. C",
    "AC-400": "AC-400 Ducted Unit Service Manual",
    "HP-120": "HP-120 Installer and Service Guide",
}
# Faults with no manual passage in any family.
NO_MANUAL = {"F-107", "F-113"}

GENERAL_PASSAGES: list[tuple[str, str]] = [
    (
        "Safety",
        "Isolate the unit at the local isolator and lock it off before opening any panel. "
        "Capacitors hold a charge: discharge them through a resistor before touching terminals.",
    ),
    (
        "Refrigerant handling",
        "Recover refrigerant into a clean cylinder before opening the circuit. Pressure-test "
        "with oxygen-free nitrogen, evacuate below 500 microns and weigh in the charge on the "
        "rating plate.",
    ),
    (
        "Identifying the variant",
        "The model variant is printed on the rating plate as family and suffix, for example "
        "{family}-A. The suffix decides which boards, motors and coils fit; the serial number "
        "does not encode it.",
    ),
]


def _variants() -> list[str]:
    """List every model variant: each family with each suffix."""
    return [f"{family}-{suffix}" for family in FAMILIES for suffix in SUFFIXES]


def _family(variant: str) -> str:
    """Return the family of a variant name (``AC-250-S`` -> ``AC-250``)."""
    return variant.rsplit("-", 1)[0]


def _parts_for(code: str, variant: str) -> list[str]:
    """List the part numbers that fix ``code`` on ``variant``."""
    return [p[0] for p in PARTS if p[3] == code and variant in p[2]]


def build_catalog() -> dict[str, Any]:
    """Build the families, suffixes, variants, shared symptom groups and fault codes."""
    faults = []
    for fault in FAULTS:
        group = fault["shared"]
        partner = [
            other["code"]
            for other in FAULTS
            if group is not None and other["shared"] == group and other["code"] != fault["code"]
        ]
        faults.append(
            {
                "code": fault["code"],
                "name": fault["name"],
                "families": fault["families"],
                "symptoms": fault["symptoms"],
                "shared_symptoms": SHARED[group] if group else [],
                "shares_symptoms_with": partner,
                "repair": fault["repair"],
            }
        )
    return {
        "families": FAMILIES,
        "suffixes": SUFFIXES,
        "variants": _variants(),
        "faults": faults,
    }


def build_tickets() -> list[dict[str, Any]]:
    """Build the ticket history.

    For every variant and every fault of its family: one ticket that describes three of the
    fault's own symptoms. For each shared-symptom pair of the family: one ticket per code whose
    symptom text is only the shared complaint, identical for both codes of the pair.
    """
    rng = random.Random(SEED)
    tickets: list[dict[str, Any]] = []
    for variant in _variants():
        family = _family(variant)
        for fault in FAULTS:
            if family not in fault["families"]:
                continue
            own = rng.sample(fault["symptoms"], 3)
            text = "; ".join(own)
            text = text[0].upper() + text[1:] + "."
            parts = _parts_for(fault["code"], variant)
            if parts:
                resolution = f"{fault['repair'].capitalize()}. Fitted {parts[0]}."
            else:
                resolution = (
                    f"Diagnosed {fault['name']}. No catalogued part fits {variant}; "
                    "escalated to the OEM for a special order."
                )
            tickets.append(_ticket(variant, text, fault["code"], resolution))
        seen: set[str] = set()
        for fault in FAULTS:
            group = fault["shared"]
            if group is None or group in seen or family not in fault["families"]:
                continue
            seen.add(group)
            complaint = rng.choice(SHARED[group])
            complaint = complaint[0].upper() + complaint[1:] + "."
            for member in FAULTS:
                if member["shared"] == group and family in member["families"]:
                    resolution = f"Customer complaint only. On site found {member['name']}."
                    tickets.append(_ticket(variant, complaint, member["code"], resolution))
    for number, ticket in enumerate(tickets, start=1001):
        ticket["id"] = f"T-{number}"
    return [{"id": t.pop("id"), **t} for t in tickets]


def _ticket(variant: str, symptom: str, code: str, resolution: str) -> dict[str, Any]:
    """Make one ticket record (its id is assigned once all tickets exist)."""
    return {
        "id": "",
        "variant": variant,
        "symptom": symptom,
        "fault_code": code,
        "resolution": resolution,
    }


def build_parts() -> list[dict[str, Any]]:
    """Build the parts catalogue."""
    return [
        {"part_no": no, "name": name, "fits": fits, "fixes": code, "sourcing": _SUPPLIERS[src]}
        for no, name, fits, code, src in PARTS
    ]


def build_stock() -> list[dict[str, Any]]:
    """Build stock on hand and lead time for every catalogued part."""
    return [
        {"part_no": no, "qty": qty, "lead_time_days": lead} for no, (qty, lead) in STOCK.items()
    ]


def build_manual() -> list[dict[str, Any]]:
    """Build manual passages: general pages, then one page per fault the family's manual covers."""
    passages: list[dict[str, Any]] = []
    for family, title in MANUALS.items():
        page = 4
        for heading, text in GENERAL_PASSAGES:
            passages.append(_passage(family, title, page, heading, text.format(family=family), []))
            page += 2
        page = 20
        for fault in FAULTS:
            if family not in fault["families"] or fault["code"] in NO_MANUAL:
                continue
            symptoms = ", ".join(fault["symptoms"][:2])
            text = (
                f"Fault {fault['code']}, {fault['name']}. Typical signs: {symptoms}. "
                f"Procedure: {fault['repair']}. Order the part listed for your exact variant "
                "in the parts catalogue; parts for other suffixes do not fit."
            )
            passages.append(
                _passage(family, title, page, fault["name"].capitalize(), text, [fault["code"]])
            )
            page += 3
    return passages


def _passage(
    family: str, title: str, page: int, heading: str, text: str, codes: list[str]
) -> dict[str, Any]:
    """Make one manual passage record with a stable id (family and page)."""
    return {
        "id": f"{family}-p{page}",
        "doc_title": title,
        "page": page,
        "product_family": family,
        "section": heading,
        "fault_codes": codes,
        "text": text,
    }


def render() -> dict[str, str]:
    """Map each file name to its exact content, as committed."""

    def dump(obj: Any) -> str:
        return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"

    def lines(rows: list[dict[str, Any]]) -> str:
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    return {
        "catalog.json": dump(build_catalog()),
        "tickets.jsonl": lines(build_tickets()),
        "parts.json": dump(build_parts()),
        "stock.json": dump(build_stock()),
        "manual.jsonl": lines(build_manual()),
    }


def main() -> None:
    """Write every data file beside this module."""
    for name, content in render().items():
        (OUT_DIR / name).write_text(content, encoding="utf-8")
        print(f"wrote {OUT_DIR / name}")


if __name__ == "__main__":
    main()
