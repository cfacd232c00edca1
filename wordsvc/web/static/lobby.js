// The players' lobby, /play (docs/pages.md, "Playing in the browser").
import { languageSwitch } from "./common.js";

languageSwitch(document.getElementById("language"));
document.body.dataset.ready = "true";
