<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
    <context>
        <name>StacGisAgent</name>
        <message>
            <source>The assistant's steps will appear here.</source>
            <translation>Les étapes de l’assistant apparaîtront ici.</translation>
        </message>
        <message>
            <source>How the assistant works on your request: its reasoning, each tool it calls with the arguments and the result, and the tokens and time each answer took.</source>
            <translation>Comment l’assistant traite votre demande : son raisonnement, chaque outil appelé avec ses arguments et son résultat, et les jetons et le temps de chaque réponse.</translation>
        </message>
        <message>
            <source>Thinking ({step})</source>
            <translation>Réflexion ({step})</translation>
        </message>
        <message>
            <source>Calling {tool}</source>
            <translation>Appel de {tool}</translation>
        </message>
        <message>
            <source>{amount} done</source>
            <translation>{amount} effectué</translation>
        </message>
        <message>
            <source>{tool} completed ({ms} ms)</source>
            <translation>{tool} terminé ({ms} ms)</translation>
        </message>
        <message>
            <source>Told the assistant: {hints}</source>
            <translation>Indiqué à l’assistant : {hints}</translation>
        </message>
        <message>
            <source>{tool} needs your choice: {text}</source>
            <translation>{tool} attend votre choix : {text}</translation>
        </message>
        <message>
            <source>{tool} failed: {text}</source>
            <translation>Échec de {tool} : {text}</translation>
        </message>
        <message>
            <source>Asking you: {question}</source>
            <translation>Question pour vous : {question}</translation>
        </message>
        <message>
            <source>Switched from {old} to {new}</source>
            <translation>Passage de {old} à {new}</translation>
        </message>
        <message>
            <source>Error: what happened and what to do is in the chat</source>
            <translation>Erreur : ce qui s’est passé et que faire sont dans la discussion</translation>
        </message>
        <message>
            <source>Stopped after {steps} steps (limit {limit})</source>
            <translation>Arrêté après {steps} étapes (limite {limit})</translation>
        </message>
        <message>
            <source>part</source>
            <translation>en partie</translation>
        </message>
        <message>
            <source>stopped ({amount} done)</source>
            <translation>arrêté ({amount} effectué)</translation>
        </message>
        <message>
            <source>Ended by the error above</source>
            <translation>Terminé par l’erreur ci-dessus</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>Arrêté</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Terminé</translation>
        </message>
        <message>
            <source>This will change:</source>
            <translation>Ceci sera modifié :</translation>
        </message>
        <message>
            <source>Or type an answer</source>
            <translation>Ou saisissez une réponse</translation>
        </message>
        <message>
            <source>Type an answer and press Enter to send it</source>
            <translation>Saisissez une réponse et appuyez sur Entrée pour l’envoyer</translation>
        </message>
        <message>
            <source>You answered: {choice}</source>
            <translation>Votre réponse : {choice}</translation>
        </message>
        <message>
            <source>No longer waiting for an answer.</source>
            <translation>Plus aucune réponse n’est attendue.</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Nom</translation>
        </message>
        <message>
            <source>URL or path</source>
            <translation>URL ou chemin</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Type</translation>
        </message>
        <message>
            <source>Headers</source>
            <translation>En-têtes</translation>
        </message>
        <message>
            <source>Extra HTTP headers for this catalog, as Key: value; Key2: value2 (secrets belong in an auth config)</source>
            <translation>En-têtes HTTP supplémentaires pour ce catalogue, sous la forme Clé: valeur; Clé2: valeur2 (les secrets vont dans une configuration d’authentification)</translation>
        </message>
        <message>
            <source>Public (no credentials)</source>
            <translation>Public (sans identifiants)</translation>
        </message>
        <message>
            <source>Fixed HTTP headers</source>
            <translation>En-têtes HTTP fixes</translation>
        </message>
        <message>
            <source>QGIS authentication (Basic, API header, OAuth2)</source>
            <translation>Authentification QGIS (Basic, en-tête d’API, OAuth2)</translation>
        </message>
        <message>
            <source>Bearer token (e.g. NASA Earthdata)</source>
            <translation>Jeton Bearer (p. ex. NASA Earthdata)</translation>
        </message>
        <message>
            <source>Planetary Computer SAS signing</source>
            <translation>Signature SAS du Planetary Computer</translation>
        </message>
        <message>
            <source>S3 credentials (auth config or AWS profile)</source>
            <translation>Identifiants S3 (configuration d’authentification ou profil AWS)</translation>
        </message>
        <message>
            <source>Add from list…</source>
            <translation>Ajouter depuis la liste…</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>Ajouter</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Supprimer</translation>
        </message>
        <message>
            <source>Test</source>
            <translation>Tester</translation>
        </message>
        <message>
            <source>Searches the catalog, then reads the header of one asset with its access method</source>
            <translation>Interroge le catalogue, puis lit l’en-tête d’un asset avec sa méthode d’accès</translation>
        </message>
        <message>
            <source>Add to Browser</source>
            <translation>Ajouter à l’Explorateur</translation>
        </message>
        <message>
            <source>Access for the selected catalog</source>
            <translation>Accès pour le catalogue sélectionné</translation>
        </message>
        <message>
            <source>Requester pays (your AWS account is charged for reads)</source>
            <translation>Requester pays (les lectures sont facturées à votre compte AWS)</translation>
        </message>
        <message>
            <source>e.g. us-west-2</source>
            <translation>p. ex. us-west-2</translation>
        </message>
        <message>
            <source>S3-compatible store, e.g. https://eodata.dataspace.copernicus.eu</source>
            <translation>stockage compatible S3, p. ex. https://eodata.dataspace.copernicus.eu</translation>
        </message>
        <message>
            <source>other hosts or buckets that get these credentials, comma-separated</source>
            <translation>autres hôtes ou buckets qui reçoivent ces identifiants, séparés par des virgules</translation>
        </message>
        <message>
            <source>default: the public Planetary Computer token API</source>
            <translation>par défaut : l’API de jetons publique du Planetary Computer</translation>
        </message>
        <message>
            <source>Method</source>
            <translation>Méthode</translation>
        </message>
        <message>
            <source>Auth config</source>
            <translation>Authentification</translation>
        </message>
        <message>
            <source>S3 region</source>
            <translation>Région S3</translation>
        </message>
        <message>
            <source>S3 endpoint</source>
            <translation>Point de terminaison S3</translation>
        </message>
        <message>
            <source>Asset hosts</source>
            <translation>Hôtes des assets</translation>
        </message>
        <message>
            <source>SAS token API</source>
            <translation>API de jetons SAS</translation>
        </message>
        <message>
            <source>Adds the selected catalog to QGIS's Browser as a STAC connection (its URL and auth config; headers stay here, they may be secrets)</source>
            <translation>Ajoute le catalogue sélectionné à l’Explorateur de QGIS comme connexion STAC (son URL et sa configuration d’authentification ; les en-têtes restent ici, ils peuvent contenir des secrets)</translation>
        </message>
        <message>
            <source>Waiting for a free slot ({ahead} ahead)</source>
            <translation>En attente d’une place libre ({ahead} avant vous)</translation>
        </message>
        <message>
            <source>Waiting for a free slot: you are next</source>
            <translation>En attente d’une place libre : vous êtes le prochain</translation>
        </message>
        <message>
            <source>Waiting for a free slot: 1 chat running, you are next</source>
            <translation>En attente d’une place libre : 1 discussion en cours, vous êtes le prochain</translation>
        </message>
        <message>
            <source>Waiting for a free slot: {running} chats running, you are next</source>
            <translation>En attente d’une place libre : {running} discussions en cours, vous êtes le prochain</translation>
        </message>
        <message>
            <source>Chat</source>
            <translation>Discussion</translation>
        </message>
        <message>
            <source>Sessions</source>
            <translation>Sessions</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>Nouvelle discussion</translation>
        </message>
        <message>
            <source>Speak answers</source>
            <translation>Lire les réponses</translation>
        </message>
        <message>
            <source>Settings…</source>
            <translation>Paramètres…</translation>
        </message>
        <message>
            <source>Cancel wait</source>
            <translation>Annuler l’attente</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>Envoyer</translation>
        </message>
        <message>
            <source>Speak</source>
            <translation>Parler</translation>
        </message>
        <message>
            <source>Speak a request (recognised on this computer); it lands in the box to check</source>
            <translation>Dicter une demande (reconnue sur cet ordinateur) ; elle arrive dans la zone de saisie pour vérification</translation>
        </message>
        <message>
            <source>Install voice input</source>
            <translation>Installer la saisie vocale</translation>
        </message>
        <message>
            <source>Voice input is ready: press Speak, say your request, press Stop.</source>
            <translation>La saisie vocale est prête : appuyez sur Parler, dites votre demande, appuyez sur Arrêter.</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Arrêter</translation>
        </message>
        <message>
            <source>Listening… press Stop when you have said your request.</source>
            <translation>À l’écoute… appuyez sur Arrêter quand vous avez dit votre demande.</translation>
        </message>
        <message>
            <source>Recognising what you said…</source>
            <translation>Reconnaissance de ce que vous avez dit…</translation>
        </message>
        <message>
            <source>Heard you: check the text in the box, correct it if needed, then press Enter.</source>
            <translation>Compris : vérifiez le texte dans la zone de saisie, corrigez-le si besoin, puis appuyez sur Entrée.</translation>
        </message>
        <message>
            <source>Stop the agent</source>
            <translation>Arrêter l’agent</translation>
        </message>
        <message>
            <source>Send (Enter)</source>
            <translation>Envoyer (Entrée)</translation>
        </message>
        <message>
            <source>Working…</source>
            <translation>En cours…</translation>
        </message>
        <message>
            <source>Ended by an error: see above.</source>
            <translation>Terminé par une erreur : voir ci-dessus.</translation>
        </message>
        <message>
            <source>Stopped before the model answered.</source>
            <translation>Arrêté avant que le modèle ne réponde.</translation>
        </message>
        <message>
            <source>The turn failed: {error}</source>
            <translation>Le tour a échoué : {error}</translation>
        </message>
        <message>
            <source>nothing answers at that address</source>
            <translation>rien ne répond à cette adresse</translation>
        </message>
        <message>
            <source>what answered there is not Ollama</source>
            <translation>ce qui répond là n’est pas Ollama</translation>
        </message>
        <message>
            <source>the connection failed</source>
            <translation>la connexion a échoué</translation>
        </message>
        <message>
            <source>Connected to Ollama {version} at {url} — model {model} ready.</source>
            <translation>Connecté à Ollama {version} à {url} — modèle {model} prêt.</translation>
        </message>
        <message>
            <source>Ollama is running but the model {model} is not installed. Run `ollama pull {model}`, or pick an installed model with the Settings… button (installed: {installed}).</source>
            <translation>Ollama fonctionne mais le modèle {model} n’est pas installé. Exécutez `ollama pull {model}`, ou choisissez un modèle installé avec le bouton « Paramètres… » (installés : {installed}).</translation>
        </message>
        <message>
            <source>none</source>
            <translation>aucun</translation>
        </message>
        <message>
            <source>Ollama is not reachable at {url}: {why}. Start it with `ollama serve` (install it from https://ollama.com), or set the Ollama URL with the Settings… button.</source>
            <translation>Ollama est injoignable à {url} : {why}. Lancez-le avec `ollama serve` (installez-le depuis https://ollama.com), ou indiquez l’URL d’Ollama avec le bouton « Paramètres… ».</translation>
        </message>
        <message>
            <source>Undo last turn</source>
            <translation>Annuler ses modifications</translation>
        </message>
        <message>
            <source>Revert what this answer changed on the map</source>
            <translation>Annuler ce que cette réponse a modifié sur la carte</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Copier</translation>
        </message>
        <message>
            <source>Copy this message as Markdown</source>
            <translation>Copier ce message en Markdown</translation>
        </message>
        <message>
            <source>The agent stopped after {steps} steps (limit {limit}). Ask it to continue, or raise 'Max steps' in the settings.</source>
            <translation>L’agent s’est arrêté après {steps} étapes (limite {limit}). Demandez-lui de continuer, ou augmentez « Étapes max. » dans les paramètres.</translation>
        </message>
        <message>
            <source>Stopped. Nothing more will be done for this message.</source>
            <translation>Arrêté. Rien de plus ne sera fait pour ce message.</translation>
        </message>
        <message>
            <source>You</source>
            <translation>Vous</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>Démarrage…</translation>
        </message>
        <message>
            <source>no map</source>
            <translation>pas de carte</translation>
        </message>
        <message>
            <source>no layers shown</source>
            <translation>aucune couche affichée</translation>
        </message>
        <message>
            <source>{count} selected</source>
            <translation>{count} sélectionnée(s)</translation>
        </message>
        <message>
            <source>empty map</source>
            <translation>carte vide</translation>
        </message>
        <message>
            <source>Map: {summary}</source>
            <translation>Carte : {summary}</translation>
        </message>
        <message>
            <source>Sent with each message: the map's CRS, scale, centre, layers, the active layer and its selected features. Click to stop sending it.</source>
            <translation>Envoyé avec chaque message : le SCR, l’échelle, le centre et les couches du canevas de carte, la couche active et ses entités sélectionnées. Cliquez pour ne plus l’envoyer.</translation>
        </message>
        <message>
            <source>Map: not sent</source>
            <translation>Carte : non envoyée</translation>
        </message>
        <message>
            <source>The map view is not sent. Click to send it with each message.</source>
            <translation>La vue de la carte n’est pas envoyée. Cliquez pour l’envoyer avec chaque message.</translation>
        </message>
        <message>
            <source>Type a question first, e.g. "show the NDVI of June".</source>
            <translation>Saisissez d’abord une question, p. ex. « montre le NDVI de juin ».</translation>
        </message>
        <message>
            <source>Ask about your map or a STAC catalog… (Enter sends, Shift+Enter new line)</source>
            <translation>Posez une question sur votre carte ou un catalogue STAC… (Entrée envoie, Maj+Entrée nouvelle ligne)</translation>
        </message>
        <message>
            <source>Let other MCP clients on this machine use the tools</source>
            <translation>Permettre à d’autres clients MCP de cette machine d’utiliser les outils</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>Port</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>Régénérer</translation>
        </message>
        <message>
            <source>Copy client config</source>
            <translation>Copier la configuration client</translation>
        </message>
        <message>
            <source>Puts JSON for your MCP client on the clipboard: a stdio entry (through the bridge) and an HTTP entry with the token</source>
            <translation>Place dans le presse-papiers le JSON pour votre client MCP : une entrée stdio (via la passerelle) et une entrée HTTP avec le jeton</translation>
        </message>
        <message>
            <source>Bearer token</source>
            <translation>Jeton Bearer</translation>
        </message>
        <message>
            <source>Token copied.</source>
            <translation>Jeton copié.</translation>
        </message>
        <message>
            <source>Client config copied: paste it into your MCP client's settings.</source>
            <translation>Configuration client copiée : collez-la dans les paramètres de votre client MCP.</translation>
        </message>
        <message>
            <source>one folder per line, e.g. /home/me/gis-data</source>
            <translation>un dossier par ligne, p. ex. /home/moi/donnees-sig</translation>
        </message>
        <message>
            <source>Outside clients may read project layers, the catalogs' assets and files in these folders; nothing else on disk.</source>
            <translation>Les clients externes peuvent lire les couches du projet, les assets des catalogues et les fichiers de ces dossiers ; rien d’autre sur le disque.</translation>
        </message>
        <message>
            <source>Folders clients may read</source>
            <translation>Dossiers lisibles par les clients</translation>
        </message>
        <message>
            <source>New token saved: the old one no longer works. Give clients the new one (Copy or Copy client config).</source>
            <translation>Nouveau jeton enregistré : l’ancien ne fonctionne plus. Donnez le nouveau aux clients (Copier ou Copier la configuration client).</translation>
        </message>
        <message>
            <source>Install dependencies</source>
            <translation>Installer les dépendances</translation>
        </message>
        <message>
            <source>STAC GIS Agent needs a few Python packages that QGIS does not ship:</source>
            <translation>STAC GIS Agent a besoin de quelques paquets Python que QGIS ne fournit pas :</translation>
        </message>
        <message>
            <source>New</source>
            <translation>Nouvelle</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Ouvrir</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>Renommer…</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>Supprimer…</translation>
        </message>
        <message>
            <source>Export Markdown…</source>
            <translation>Exporter en Markdown…</translation>
        </message>
        <message>
            <source>Export map (PyQGIS)…</source>
            <translation>Exporter la carte (PyQGIS)…</translation>
        </message>
        <message>
            <source>Export report (PDF)…</source>
            <translation>Exporter le rapport (PDF)…</translation>
        </message>
        <message>
            <source>Export model (.model3)…</source>
            <translation>Exporter le modèle (.model3)…</translation>
        </message>
        <message>
            <source>The conversation as a PDF report: questions, answers, charts, exported map pages and every STAC item and parameter used (an .html name writes HTML)</source>
            <translation>La discussion en rapport PDF : questions, réponses, graphiques, pages de carte exportées et chaque item STAC et paramètre utilisé (un nom en .html écrit du HTML)</translation>
        </message>
        <message>
            <source>The chat's analysis as a Processing model: each tool call Processing can repeat is a step with its parameters; open it in the Graphical Modeler</source>
            <translation>L’analyse de la discussion en modèle de traitement : chaque appel d’outil que Traitement peut rejouer est une étape avec ses paramètres ; à ouvrir dans le Modeleur graphique</translation>
        </message>
        <message>
            <source>A script that rebuilds the map as it is now in QGIS (groups, layers, styles, view), named after the selected conversation</source>
            <translation>Un script qui reconstruit la carte telle qu’elle est maintenant dans QGIS (groupes, couches, styles, vue), nommé d’après la discussion sélectionnée</translation>
        </message>
        <message>
            <source>The session store failed: {error}. Check the Redis URL in the settings, or clear it to use the embedded store.</source>
            <translation>Le stockage des sessions a échoué : {error}. Vérifiez l’URL Redis dans les paramètres, ou videz-la pour utiliser le stockage intégré.</translation>
        </message>
        <message>
            <source>(untitled)</source>
            <translation>(sans titre)</translation>
        </message>
        <message>
            <source>{count} messages</source>
            <translation>{count} messages</translation>
        </message>
        <message>
            <source>No saved conversations yet.</source>
            <translation>Aucune discussion enregistrée pour l’instant.</translation>
        </message>
        <message>
            <source>That session no longer exists; the list was refreshed.</source>
            <translation>Cette session n’existe plus ; la liste a été actualisée.</translation>
        </message>
        <message>
            <source>It is empty: this chat made no call that Processing can repeat (statistics over an area, a STAC search, loading STAC items, a spectral index of an item, a Processing algorithm).</source>
            <translation>Il est vide : cette discussion n’a fait aucun appel que Traitement peut rejouer (statistiques sur une zone, recherche STAC, chargement d’items STAC, indice spectral d’un item, algorithme de traitement).</translation>
        </message>
        <message>
            <source>Saved the conversation to {path}.</source>
            <translation>Discussion enregistrée dans {path}.</translation>
        </message>
        <message>
            <source>Saved a script that rebuilds the map as it is now to {path}.</source>
            <translation>Script qui reconstruit la carte telle qu’elle est enregistré dans {path}.</translation>
        </message>
        <message>
            <source>Saved the report to {path}.</source>
            <translation>Rapport enregistré dans {path}.</translation>
        </message>
        <message>
            <source>Saved the Processing model to {path}.</source>
            <translation>Modèle de traitement enregistré dans {path}.</translation>
        </message>
        <message>
            <source>Rename conversation</source>
            <translation>Renommer la discussion</translation>
        </message>
        <message>
            <source>New title:</source>
            <translation>Nouveau titre :</translation>
        </message>
        <message>
            <source>Delete conversation</source>
            <translation>Supprimer la discussion</translation>
        </message>
        <message>
            <source>Delete “{title}” and its history? This cannot be undone.</source>
            <translation>Supprimer « {title} » et son historique ? Cette action est irréversible.</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>Python script (*.py)</source>
            <translation>Script Python (*.py)</translation>
        </message>
        <message>
            <source>PDF report (*.pdf);;HTML report (*.html)</source>
            <translation>Rapport PDF (*.pdf);;Rapport HTML (*.html)</translation>
        </message>
        <message>
            <source>Processing model (*.model3)</source>
            <translation>Modèle de traitement (*.model3)</translation>
        </message>
        <message>
            <source>Export conversation</source>
            <translation>Exporter la discussion</translation>
        </message>
        <message>
            <source>Export map as PyQGIS script</source>
            <translation>Exporter la carte en script PyQGIS</translation>
        </message>
        <message>
            <source>Export report</source>
            <translation>Exporter le rapport</translation>
        </message>
        <message>
            <source>Export Processing model</source>
            <translation>Exporter le modèle de traitement</translation>
        </message>
        <message>
            <source>text only</source>
            <translation>texte seul</translation>
        </message>
        <message>
            <source>With Redis, chats and the concurrent-chat limit are shared by everyone using the same server: the limit counts the chats of the whole team, and others wait in line. While Redis is unreachable the limit holds per computer only (each QGIS may run that many chats), so the shared LLM server can get more at once until Redis is back.</source>
            <translation>Avec Redis, les discussions et la limite de discussions simultanées sont partagées par tous ceux qui utilisent le même serveur : la limite compte les discussions de toute l’équipe, et les autres attendent leur tour. Tant que Redis est injoignable, la limite ne vaut que par ordinateur (chaque QGIS peut mener autant de discussions), si bien que le serveur LLM partagé peut en recevoir davantage à la fois jusqu’au retour de Redis.</translation>
        </message>
        <message>
            <source>STAC GIS Agent settings</source>
            <translation>Paramètres de STAC GIS Agent</translation>
        </message>
        <message>
            <source>Adding catalogs to the QGIS Browser is not offered here.</source>
            <translation>L’ajout de catalogues à l’Explorateur de QGIS n’est pas proposé ici.</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Modèle</translation>
        </message>
        <message>
            <source>Catalogs</source>
            <translation>Catalogues</translation>
        </message>
        <message>
            <source>Storage</source>
            <translation>Stockage</translation>
        </message>
        <message>
            <source>Outside access</source>
            <translation>Accès externe</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>Tester la connexion</translation>
        </message>
        <message>
            <source>Ollama URL</source>
            <translation>URL d’Ollama</translation>
        </message>
        <message>
            <source>Chat model</source>
            <translation>Modèle de discussion</translation>
        </message>
        <message>
            <source>Embedding model</source>
            <translation>Modèle d’embeddings</translation>
        </message>
        <message>
            <source>empty: no backup · http://gpu-host:11434 · http://host:8080/v1</source>
            <translation>vide : pas de secours · http://gpu-host:11434 · http://host:8080/v1</translation>
        </message>
        <message>
            <source>Backup provider URL</source>
            <translation>URL du fournisseur de secours</translation>
        </message>
        <message>
            <source>Backup model</source>
            <translation>Modèle de secours</translation>
        </message>
        <message>
            <source>Backup protocol</source>
            <translation>Protocole de secours</translation>
        </message>
        <message>
            <source>Backup API key (QGIS authentication)</source>
            <translation>Clé d’API de secours (authentification QGIS)</translation>
        </message>
        <message>
            <source>Context window (num_ctx)</source>
            <translation>Fenêtre de contexte (num_ctx)</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>Température</translation>
        </message>
        <message>
            <source>Max steps per message</source>
            <translation>Étapes max. par message</translation>
        </message>
        <message>
            <source>Tools offered when not all fit (top-K)</source>
            <translation>Outils proposés quand tous ne tiennent pas (top-K)</translation>
        </message>
        <message>
            <source>Constrained tool calling (for models whose tool calls break)</source>
            <translation>Appels d’outils contraints (pour les modèles dont les appels d’outils échouent)</translation>
        </message>
        <message>
            <source>Each reply is forced to be one JSON action: a valid tool call or the answer. Models without native tool calling use it automatically.</source>
            <translation>Chaque réponse doit être une seule action JSON : un appel d’outil valide ou la réponse. Les modèles sans appel d’outils natif l’utilisent automatiquement.</translation>
        </message>
        <message>
            <source>Leave empty to keep everything in the embedded SQLite files.</source>
            <translation>Laisser vide pour tout garder dans les fichiers SQLite intégrés.</translation>
        </message>
        <message>
            <source>PostgreSQL DSN</source>
            <translation>DSN PostgreSQL</translation>
        </message>
        <message>
            <source>Password (QGIS authentication)</source>
            <translation>Mot de passe (authentification QGIS)</translation>
        </message>
        <message>
            <source>tcp://scheduler:8786 (empty: statistics computed on this machine)</source>
            <translation>tcp://scheduler:8786 (vide : statistiques calculées sur cette machine)</translation>
        </message>
        <message>
            <source>Dask scheduler</source>
            <translation>Ordonnanceur Dask</translation>
        </message>
        <message>
            <source>redis://host:6379/0 · rediss://host:6380/0 for TLS (no password here)</source>
            <translation>redis://host:6379/0 · rediss://host:6380/0 pour TLS (pas de mot de passe ici)</translation>
        </message>
        <message>
            <source>Redis URL</source>
            <translation>URL Redis</translation>
        </message>
        <message>
            <source>Redis password (QGIS authentication)</source>
            <translation>Mot de passe Redis (authentification QGIS)</translation>
        </message>
        <message>
            <source>Concurrent chats (whole team)</source>
            <translation>Discussions simultanées (toute l’équipe)</translation>
        </message>
        <message>
            <source>Not saved:</source>
            <translation>Non enregistré :</translation>
        </message>
        <message>
            <source>Do not put the Redis password in the URL: remove it and store it in an auth configuration (“Redis password” below, Basic method: user may be empty), so it stays in QGIS's authentication database.</source>
            <translation>Ne mettez pas le mot de passe Redis dans l’URL : retirez-le et enregistrez-le dans une configuration d’authentification (« Mot de passe Redis » ci-dessous, méthode Basic : l’utilisateur peut être vide), pour qu’il reste dans la base d’authentification de QGIS.</translation>
        </message>
        <message>
            <source>Contacting {url}…</source>
            <translation>Connexion à {url}…</translation>
        </message>
        <message>
            <source>{model} cannot call tools; pick one marked “tools”.</source>
            <translation>{model} ne sait pas appeler d’outils ; choisissez-en un marqué « tools ».</translation>
        </message>
        <message>
            <source>Testing {catalog}: search, then one asset's header…</source>
            <translation>Test de {catalog} : recherche, puis l’en-tête d’un asset…</translation>
        </message>
        <message>
            <source>'{name}' is now a STAC connection in the QGIS Browser (its URL and auth config; headers stay in the plugin). Refresh the Browser panel if it does not show yet; edit it there from now on.</source>
            <translation>« {name} » est maintenant une connexion STAC dans l’Explorateur de QGIS (son URL et sa configuration d’authentification ; les en-têtes restent dans l’extension). Actualisez le panneau Explorateur si elle n’apparaît pas encore ; modifiez-la désormais là-bas.</translation>
        </message>
        <message>
            <source>What each turn of the assistant changed in the project, newest first. “Back to here” undoes the turns above it; changes you made yourself stay, and are named.</source>
            <translation>Ce que chaque tour de l’assistant a modifié dans le projet, du plus récent au plus ancien. « Revenir ici » annule les tours au-dessus ; vos propres modifications restent, et sont nommées.</translation>
        </message>
        <message>
            <source>Nothing here yet. When the assistant changes the project (adds a layer, moves the map, writes a file), the turn appears here.</source>
            <translation>Rien pour l’instant. Quand l’assistant modifie le projet (ajoute une couche, déplace la carte, écrit un fichier), le tour apparaît ici.</translation>
        </message>
        <message>
            <source>This history is saved with the project.</source>
            <translation>Cet historique est enregistré avec le projet.</translation>
        </message>
        <message>
            <source>You asked: “{request}”</source>
            <translation>Votre demande : « {request} »</translation>
        </message>
        <message>
            <source>The project is here now</source>
            <translation>Le projet est ici maintenant</translation>
        </message>
        <message>
            <source>Undone</source>
            <translation>Annulé</translation>
        </message>
        <message>
            <source>Redo to here</source>
            <translation>Rétablir jusqu’ici</translation>
        </message>
        <message>
            <source>Back to here</source>
            <translation>Revenir ici</translation>
        </message>
        <message>
            <source>Do this turn again, and the undone turns before it</source>
            <translation>Refaire ce tour, ainsi que les tours annulés avant lui</translation>
        </message>
        <message>
            <source>Undo every turn above this one</source>
            <translation>Annuler chaque tour au-dessus de celui-ci</translation>
        </message>
        <message>
            <source>Before the first turn</source>
            <translation>Avant le premier tour</translation>
        </message>
        <message>
            <source>Open link in your browser?</source>
            <translation>Ouvrir le lien dans votre navigateur ?</translation>
        </message>
        <message>
            <source>The assistant's answer links to:</source>
            <translation>La réponse de l’assistant pointe vers :</translation>
        </message>
        <message>
            <source>Open it in your web browser?</source>
            <translation>L’ouvrir dans votre navigateur web ?</translation>
        </message>
        <message>
            <source>Link not opened</source>
            <translation>Lien non ouvert</translation>
        </message>
        <message>
            <source>This link was not opened: {address}</source>
            <translation>Ce lien n’a pas été ouvert : {address}</translation>
        </message>
        <message>
            <source>Only web addresses (http or https) open from the chat. Copy the text if you want to use it elsewhere.</source>
            <translation>Seules les adresses web (http ou https) s’ouvrent depuis la discussion. Copiez le texte si vous voulez l’utiliser ailleurs.</translation>
        </message>
        <message>
            <source>Voice input needs Qt Multimedia, which this QGIS does not have (on Debian and Ubuntu: install the package python3-pyqt5.qtmultimedia, then restart QGIS).</source>
            <translation>La saisie vocale nécessite Qt Multimedia, absent de ce QGIS (sous Debian et Ubuntu : installez le paquet python3-pyqt5.qtmultimedia, puis redémarrez QGIS).</translation>
        </message>
        <message>
            <source>No microphone was found. Plug one in (or allow QGIS to use it in your system's privacy settings), then press Speak again.</source>
            <translation>Aucun micro trouvé. Branchez-en un (ou autorisez QGIS à l’utiliser dans les réglages de confidentialité de votre système), puis appuyez de nouveau sur Parler.</translation>
        </message>
        <message>
            <source>Nothing was recognised. Press Speak, say your request, then press Stop.</source>
            <translation>Rien n’a été reconnu. Appuyez sur Parler, dites votre demande, puis appuyez sur Arrêter.</translation>
        </message>
        <message>
            <source>Voice input is not available in this session.</source>
            <translation>La saisie vocale n’est pas disponible dans cette session.</translation>
        </message>
        <message>
            <source>Voice input failed: {error}</source>
            <translation>La saisie vocale a échoué : {error}</translation>
        </message>
        <message>
            <source>Find imagery in STAC catalogs by place, date and cloud cover, and put it on the map.</source>
            <translation>Trouver des images dans les catalogues STAC par lieu, date et couverture nuageuse, et les afficher sur la carte.</translation>
        </message>
        <message>
            <source>Style rasters (true colour, NDVI ramps, elevation) and zoom to places or layers.</source>
            <translation>Styliser des rasters (couleurs naturelles, rampes NDVI, altitude) et zoomer sur des lieux ou des couches.</translation>
        </message>
        <message>
            <source>Compute statistics, zonal statistics and time series, and draw charts.</source>
            <translation>Calculer des statistiques, des statistiques zonales et des séries temporelles, et tracer des graphiques.</translation>
        </message>
        <message>
            <source>Undo what an answer changed on the map; nothing is removed without your OK.</source>
            <translation>Annuler ce qu’une réponse a modifié sur la carte ; rien n’est supprimé sans votre accord.</translation>
        </message>
        <message>
            <source>What data do I have?</source>
            <translation>Quelles données ai-je ?</translation>
        </message>
        <message>
            <source>Show the June RGB scene in true colour</source>
            <translation>Affiche la scène RVB de juin en couleurs naturelles</translation>
        </message>
        <message>
            <source>Show the June NDVI and give me its mean</source>
            <translation>Affiche le NDVI de juin et donne sa moyenne</translation>
        </message>
        <message>
            <source>Show the elevation with a terrain ramp</source>
            <translation>Affiche l’altitude avec une rampe de relief</translation>
        </message>
        <message>
            <source>Try one (they use the offline demo catalog of Lyon):</source>
            <translation>Essayez-en un (ils utilisent le catalogue de démonstration hors ligne de Lyon) :</translation>
        </message>
        <message>
            <source>These examples use the offline demo catalog of Lyon, which is not in your catalogs: add “Demo (offline)” back in Settings… ▸ Catalogs to try them.</source>
            <translation>Ces exemples utilisent le catalogue de démonstration hors ligne de Lyon, qui n’est pas dans vos catalogues : rajoutez « Demo (offline) » dans Paramètres… ▸ Catalogues pour les essayer.</translation>
        </message>
        <message>
            <source>Ask about your map and your imagery</source>
            <translation>Posez vos questions sur votre carte et vos images</translation>
        </message>
        <message>
            <source>Checking the connection to Ollama…</source>
            <translation>Vérification de la connexion à Ollama…</translation>
        </message>
        <message>
            <source>Copy command</source>
            <translation>Copier la commande</translation>
        </message>
        <message>
            <source>Copy it, then paste it into a terminal</source>
            <translation>Copiez-la, puis collez-la dans un terminal</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Réessayer</translation>
        </message>
        <message>
            <source>Check the connection to Ollama again</source>
            <translation>Vérifier de nouveau la connexion à Ollama</translation>
        </message>
        <message>
            <source>Send “{request}”</source>
            <translation>Envoyer « {request} »</translation>
        </message>
        <message>
            <source>Run this command, then click Retry:</source>
            <translation>Exécutez cette commande, puis cliquez sur Réessayer :</translation>
        </message>
        <message>
            <source>Show or hide the STAC GIS Agent chat</source>
            <translation>Afficher ou masquer la discussion de STAC GIS Agent</translation>
        </message>
        <message>
            <source>Install the requirements first (see above); then ask again.</source>
            <translation>Installez d’abord les dépendances (voir ci-dessus) ; puis reposez la question.</translation>
        </message>
        <message>
            <source>The assistant is still answering; your question is in the box, send it when done.</source>
            <translation>L’assistant répond encore ; votre question est dans la zone de saisie, envoyez-la quand il aura fini.</translation>
        </message>
        <message>
            <source>QGIS's Python interpreter was not found; install the packages with pip by hand.</source>
            <translation>L’interpréteur Python de QGIS est introuvable ; installez les paquets à la main avec pip.</translation>
        </message>
        <message>
            <source>Requirements missing — see above.</source>
            <translation>Dépendances manquantes — voir ci-dessus.</translation>
        </message>
        <message>
            <source>Installing dependencies…</source>
            <translation>Installation des dépendances…</translation>
        </message>
        <message>
            <source>pip failed — see its output above; check your network or proxy.</source>
            <translation>pip a échoué — voir sa sortie ci-dessus ; vérifiez votre réseau ou votre proxy.</translation>
        </message>
        <message>
            <source>pip finished, but some packages are still unusable (listed above); restart QGIS, and if they are still listed, install them by hand.</source>
            <translation>pip a terminé, mais certains paquets restent inutilisables (listés ci-dessus) ; redémarrez QGIS, et s’ils sont encore listés, installez-les à la main.</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install pocketsphinx by hand (pip install pocketsphinx).</source>
            <translation>Le Python de QGIS ou son pip est introuvable : installez pocketsphinx à la main (pip install pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser pocketsphinx (about 30 MB)… The chat comes back when it is done.</source>
            <translation>Saisie vocale : installation du module de reconnaissance hors ligne pocketsphinx (environ 30 Mo)… La discussion revient une fois terminé.</translation>
        </message>
        <message>
            <source>pocketsphinx could not be installed (pip's output was shown above); check your network or proxy, or install it by hand with QGIS's Python.</source>
            <translation>pocketsphinx n’a pas pu être installé (la sortie de pip était affichée ci-dessus) ; vérifiez votre réseau ou votre proxy, ou installez-le à la main avec le Python de QGIS.</translation>
        </message>
        <message>
            <source>History</source>
            <translation>Historique</translation>
        </message>
        <message>
            <source>MCP endpoint not started on port {port}: {error}. See the QGIS log.</source>
            <translation>Point de terminaison MCP non démarré sur le port {port} : {error}. Voir le journal de QGIS.</translation>
        </message>
        <message>
            <source>Checking Ollama at {url}…</source>
            <translation>Vérification d’Ollama à {url}…</translation>
        </message>
        <message>
            <source>{n} tokens in</source>
            <translation>{n} jetons en entrée</translation>
        </message>
        <message>
            <source>{n} re-read</source>
            <translation>{n} relus</translation>
        </message>
        <message>
            <source>{n} out</source>
            <translation>{n} en sortie</translation>
        </message>
        <message>
            <source>{rate} tokens/s</source>
            <translation>{rate} jetons/s</translation>
        </message>
        <message>
            <source>context {used} / {window} ({share}%)</source>
            <translation>contexte {used} / {window} ({share} %)</translation>
        </message>
        <message>
            <source>first token {seconds} s</source>
            <translation>premier jeton {seconds} s</translation>
        </message>
        <message>
            <source>{n} step</source>
            <translation>{n} étape</translation>
        </message>
        <message>
            <source>{n} steps</source>
            <translation>{n} étapes</translation>
        </message>
        <message>
            <source>{n} tool call</source>
            <translation>{n} appel d’outil</translation>
        </message>
        <message>
            <source>{n} tool calls</source>
            <translation>{n} appels d’outils</translation>
        </message>
    </context>
</TS>
