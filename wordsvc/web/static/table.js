// A hosted table's page, /play/{event}/{game} (docs/pages.md, "Playing in the browser").
import { languageSwitch } from "./common.js";
import { keptSeat } from "./play_store.js";

languageSwitch(document.getElementById("language"));
void keptSeat;
document.body.dataset.ready = "true";
