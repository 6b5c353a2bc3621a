"""Which Processing algorithms the plugin offers, and what each of their parameters is: one explicit list,
built from QGIS 3.22's registry (native, qgis, gdal, 3d providers) and read parameter by parameter.

An algorithm that is not listed here is unknown and every call waits for the user's OK; a REFUSED one is
not offered at all. A listed algorithm's parameters are judged by their type (DATA_TYPES carry only data,
CODE_TYPES are evaluated as QGIS expressions, which can call Python functions) and, for free text, by the
role named in TEXT_ROLES: a text parameter without a role is unknown, so the call asks first.
`tests/qgis/test_processing_allowlist.py` checks the list against the live registry.
"""

from __future__ import annotations

from typing import Any

# roles of parameters
DATA = "data"  # numbers, layers, fields, choices, names and labels: nothing is run or read from elsewhere
READ = "read"  # a file or folder the algorithm reads: checked like any file an outside client names
CODE = "code"  # evaluated as code: a QGIS expression (which can call Python functions) or SQL
GDAL_ARGS = "gdal arguments"  # free command-line text handed to GDAL/OGR: it may read or write other files
URL = "url"  # fetched from the network or copied from a file: a download, so a write
MAP_ALGEBRA = "map algebra"  # QGIS's raster calculator grammar: arithmetic on bands, no functions, no code
UNCHECKED = "unchecked"  # structured values holding paths, filters or device commands that are not checked
NAME = DATA

DATA_TYPES = frozenset({
    "number", "boolean", "enum", "distance", "duration", "scale", "range", "color", "band", "field", "crs",
    "extent", "point", "coordinateoperation", "matrix", "relief_colors", "layout", "layoutitem", "maptheme",
    "providerconnection", "databaseschema", "databasetable", "meshdatasettime", "meshdatasetgroups",
    "source", "vector", "raster", "layer", "mesh", "multilayer", "pointcloud",
})
TYPE_ROLES = {
    "file": READ,
    "expression": CODE,
    "aggregates": CODE,  # each aggregate is an expression
    "fields_mapping": CODE,  # each output field is an expression
    "execute_sql": CODE,  # a virtual layer's SQL, which can call QGIS expression functions
}

REFUSED = {  # algorithm id → why it is not offered: what it runs is code, which no check can judge
    "qgis:advancedpythonfieldcalculator": "it runs Python code (its global code and formula) in QGIS",
    "gdal:rastercalculator": "gdal_calc evaluates its formula with Python's eval; use qgis:rastercalculator, "
                             "whose map algebra runs no code",
}
REFUSED_PROVIDERS = {  # provider id → why none of its algorithms is offered
    "script": "Processing scripts are Python code",
    "model": "Processing models can chain any algorithm, scripts included",
    "project": "models stored in the project can chain any algorithm, scripts included",
}
ALWAYS_ASKS = {  # listed algorithms whose every call changes something beyond their outputs
    "native:batchnominatimgeocoder": "sends the address text of every feature to the public OpenStreetMap "
                                     "Nominatim geocoder",
}

# Algorithms whose parameters all carry data by their type (expressions still count as code, by type).
DATA_ONLY = frozenset('''
3d:tessellate
gdal:assignprojection gdal:buildvirtualvector gdal:extractprojection gdal:gdal2xyz gdal:ogrinfo gdal:pcttorgb
gdal:rgbtopct
native:affinetransform native:aggregate native:antimeridiansplit native:arrayoffsetlines
native:arraytranslatedfeatures native:aspect native:assignprojection native:atlaslayouttoimage
native:atlaslayouttopdf native:batchnominatimgeocoder native:bookmarkstolayer native:boundary native:boundingboxes
native:buffer native:bufferbym native:calculatevectoroverlaps native:categorizeusingstyle native:cellstackpercentile
native:cellstackpercentrankfromrasterlayer native:cellstackpercentrankfromvalue native:cellstatistics
native:centroids native:clip native:collect native:combinestyles native:condition native:convertgpxfeaturetype
native:converttocurves native:convexhull native:createattributeindex native:createconstantrasterlayer
native:createdirectory native:creategrid native:createpointslayerfromtable native:createrandombinomialrasterlayer
native:createrandomexponentialrasterlayer native:createrandomgammarasterlayer
native:createrandomgeometricrasterlayer native:createrandomnegativebinomialrasterlayer
native:createrandomnormalrasterlayer native:createrandompoissonrasterlayer native:createrandomuniformrasterlayer
native:createspatialindex native:deletecolumn native:deleteduplicategeometries native:deleteholes
native:densifygeometries native:densifygeometriesgivenaninterval native:detectvectorchanges native:difference
native:dissolve native:dropgeometries native:dropmzvalues native:equaltofrequency native:explodelines
native:exportlayersinformation native:exportmeshedges native:exportmeshfaces native:exportmeshongrid
native:exportmeshvertices native:exporttospreadsheet native:extendlines native:extenttolayer native:extractbinary
native:extractbyexpression native:extractbyextent native:extractbylocation native:extractvertices
native:extractwithindistance native:fillnodata native:filter native:filterbygeometry native:filterlayersbytype
native:filterverticesbym native:filterverticesbyz native:fixgeometries native:flattenrelationships native:forcerhr
native:fuzzifyrastergaussianmembership native:fuzzifyrasterlargemembership native:fuzzifyrasterlinearmembership
native:fuzzifyrasternearmembership native:fuzzifyrasterpowermembership native:fuzzifyrastersmallmembership
native:generatepointspixelcentroidsinsidepolygons native:geometrybyexpression native:greaterthanfrequency
native:highestpositioninrasterstack native:hillshade native:hublines native:importphotos native:interpolatepoint
native:layertobookmarks native:lessthanfrequency native:linedensity native:linesubstring
native:lowestpositioninrasterstack native:meancoordinates native:mergelines native:mergevectorlayers
native:meshexportcrosssection native:meshexporttimeseries native:meshrasterize native:minimumenclosingcircle
native:multiparttosingleparts native:multiringconstantbuffer native:nearestneighbouranalysis native:offsetline
native:orderbyexpression native:orientedminimumboundingbox native:orthogonalize native:package native:pointonsurface
native:pointsalonglines native:pointtolayer native:poleofinaccessibility native:polygonfromlayerextent
native:polygonize native:polygonstolines native:printlayoutmapextenttolayer native:printlayouttoimage
native:printlayouttopdf native:projectpointcartesian native:promotetomulti native:randomextract
native:randompointsinextent native:randompointsinpolygons native:randompointsonlines native:rasterbooleanand
native:rasterize native:rasterlayerproperties native:rasterlayerstatistics native:rasterlayeruniquevaluesreport
native:rasterlayerzonalstats native:rasterlogicalor native:rastersurfacevolume native:reclassifybylayer
native:reclassifybytable native:rectanglesovalsdiamonds native:refactorfields native:removeduplicatesbyattribute
native:removeduplicatevertices native:removenullgeometries native:repairshapefile native:reprojectlayer
native:rescaleraster native:retainfields native:reverselinedirection native:rotatefeatures native:roundrastervalues
native:ruggednessindex native:savelog native:saveselectedfeatures native:segmentizebymaxangle
native:segmentizebymaxdistance native:selectbylocation native:selectwithindistance native:setlayerstyle
native:setmfromraster native:setmvalue native:setzfromraster native:setzvalue native:shpencodinginfo
native:simplifygeometries native:singlesidedbuffer native:slope native:smoothgeometry native:snapgeometries
native:snappointstogrid native:splitlinesbylength native:splitvectorlayer native:splitwithlines
native:stylefromproject native:subdivide native:swapxy native:taperedbuffer native:transect native:translategeometry
native:truncatetable native:wedgebuffers
qgis:barplot qgis:basicstatisticsforfields qgis:boxplot qgis:checkvalidity qgis:climbalongline qgis:concavehull
qgis:convertgeometrytype qgis:definecurrentprojection qgis:delaunaytriangulation qgis:distancematrix
qgis:distancetonearesthublinetohub qgis:distancetonearesthubpoints qgis:eliminateselectedpolygons
qgis:exportaddgeometrycolumns qgis:findprojection qgis:generatepointspixelcentroidsalongline
qgis:heatmapkerneldensityestimation qgis:hypsometriccurves qgis:joinbylocationsummary qgis:keepnbiggestparts
qgis:knearestconcavehull qgis:linestopolygons qgis:listuniquevalues qgis:meanandstandarddeviationplot
qgis:minimumboundinggeometry qgis:pointsdisplacement qgis:polarplot qgis:randomextractwithinsubsets
qgis:randompointsalongline qgis:randompointsinlayerbounds qgis:randompointsinsidepolygons qgis:randomselection
qgis:randomselectionwithinsubsets qgis:rasterlayerhistogram qgis:rectanglesovalsdiamondsvariable qgis:regularpoints
qgis:relief qgis:scatter3dplot qgis:selectbyexpression qgis:setstyleforrasterlayer qgis:setstyleforvectorlayer
qgis:statisticsbycategories qgis:texttofloat qgis:tilesxyzdirectory qgis:tilesxyzmbtiles qgis:topologicalcoloring
qgis:variabledistancebuffer qgis:vectorlayerhistogram qgis:vectorlayerscatterplot qgis:voronoipolygons
'''.split())
TEXT_ROLES: dict[str, dict[str, str]] = {  # algorithm id → role of each text or structured parameter
    "gdal:aspect": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:buffervectors": {"GEOMETRY": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:buildvirtualraster": {"SRC_NODATA": NAME, "EXTRA": GDAL_ARGS},
    "gdal:cliprasterbyextent": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:cliprasterbymasklayer": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:clipvectorbyextent": {"OPTIONS": GDAL_ARGS},
    "gdal:clipvectorbypolygon": {"OPTIONS": GDAL_ARGS},
    "gdal:colorrelief": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:contour": {"FIELD_NAME": NAME, "EXTRA": GDAL_ARGS, "OPTIONS": GDAL_ARGS},
    "gdal:contour_polygon": {"EXTRA": GDAL_ARGS, "OPTIONS": GDAL_ARGS, "FIELD_NAME_MIN": NAME, "FIELD_NAME_MAX": NAME},
    "gdal:convertformat": {"OPTIONS": GDAL_ARGS},
    "gdal:dissolve": {"GEOMETRY": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:executesql": {"SQL": CODE, "OPTIONS": GDAL_ARGS},
    "gdal:fillnodata": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:gdal2tiles": {"ZOOM": NAME, "TITLE": NAME, "COPYRIGHT": NAME, "URL": NAME, "GOOGLE_KEY": NAME, "BING_KEY": NAME},
    "gdal:gdalinfo": {"EXTRA": GDAL_ARGS},
    "gdal:gridaverage": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:griddatametrics": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:gridinversedistance": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:gridinversedistancenearestneighbor": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:gridlinear": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:gridnearestneighbor": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:hillshade": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:importvectorintopostgisdatabaseavailableconnections": {"SHAPE_ENCODING": NAME, "PK": NAME, "GEOCOLUMN": NAME, "SIMPLIFY": NAME, "SEGMENTIZE": NAME, "WHERE": CODE, "GT": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:importvectorintopostgisdatabasenewconnection": {"SHAPE_ENCODING": NAME, "HOST": NAME, "PORT": NAME, "USER": NAME, "DBNAME": NAME, "PASSWORD": NAME, "SCHEMA": NAME, "TABLE": NAME, "PK": NAME, "GEOCOLUMN": NAME, "SIMPLIFY": NAME, "SEGMENTIZE": NAME, "WHERE": CODE, "GT": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:merge": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:nearblack": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:offsetcurve": {"GEOMETRY": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:onesidebuffer": {"GEOMETRY": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:overviews": {"LEVELS": NAME, "EXTRA": GDAL_ARGS},
    "gdal:pansharp": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:pointsalonglines": {"GEOMETRY": NAME, "OPTIONS": GDAL_ARGS},
    "gdal:polygonize": {"FIELD": NAME, "EXTRA": GDAL_ARGS},
    "gdal:proximity": {"VALUES": NAME, "OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:rasterize": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:rasterize_over": {"EXTRA": GDAL_ARGS},
    "gdal:rasterize_over_fixed_value": {"EXTRA": GDAL_ARGS},
    "gdal:rearrange_bands": {"OPTIONS": GDAL_ARGS},
    "gdal:retile": {"DELIMITER": NAME, "OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:roughness": {"OPTIONS": GDAL_ARGS},
    "gdal:sieve": {"EXTRA": GDAL_ARGS},
    "gdal:slope": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:tileindex": {"PATH_FIELD_NAME": NAME, "CRS_FIELD_NAME": NAME},
    "gdal:tpitopographicpositionindex": {"OPTIONS": GDAL_ARGS},
    "gdal:translate": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:triterrainruggednessindex": {"OPTIONS": GDAL_ARGS},
    "gdal:viewshed": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "gdal:warpreproject": {"OPTIONS": GDAL_ARGS, "EXTRA": GDAL_ARGS},
    "native:addautoincrementalfield": {"FIELD_NAME": NAME},
    "native:addfieldtoattributestable": {"FIELD_NAME": NAME},
    "native:adduniquevalueindexfield": {"FIELD_NAME": NAME},
    "native:addxyfields": {"PREFIX": NAME},
    "native:angletonearest": {"FIELD_NAME": NAME},
    "native:convertgpsdata": {"FORMAT": UNCHECKED},
    "native:countpointsinpolygon": {"FIELD": NAME},
    "native:dbscanclustering": {"FIELD_NAME": NAME, "SIZE_FIELD_NAME": NAME},
    "native:downloadgpsdata": {"DEVICE": UNCHECKED, "PORT": UNCHECKED},
    "native:dxfexport": {"LAYERS": UNCHECKED},
    "native:explodehstorefield": {"EXPECTED_FIELDS": NAME},
    "native:extractbyattribute": {"VALUE": NAME},
    "native:extractmvalues": {"COLUMN_PREFIX": NAME},
    "native:extractspecificvertices": {"VERTICES": NAME},
    "native:extractzvalues": {"COLUMN_PREFIX": NAME},
    "native:fieldcalculator": {"FIELD_NAME": NAME},
    "native:filedownloader": {"URL": URL, "DATA": NAME},
    "native:intersection": {"OVERLAY_FIELDS_PREFIX": NAME},
    "native:joinattributesbylocation": {"PREFIX": NAME},
    "native:joinattributestable": {"PREFIX": NAME},
    "native:joinbynearest": {"PREFIX": NAME},
    "native:kmeansclustering": {"FIELD_NAME": NAME, "SIZE_FIELD_NAME": NAME},
    "native:lineintersections": {"INTERSECT_FIELDS_PREFIX": NAME},
    "native:loadlayer": {"NAME": NAME},
    "native:meshcontours": {"CONTOUR_LEVEL_LIST": NAME},
    "native:pixelstopoints": {"FIELD_NAME": NAME},
    "native:pixelstopolygons": {"FIELD_NAME": NAME},
    "native:pointstopath": {"DATE_FORMAT": NAME},
    "native:postgisexecutesql": {"SQL": CODE},
    "native:raiseexception": {"MESSAGE": NAME},
    "native:raisewarning": {"MESSAGE": NAME},
    "native:rastersampling": {"COLUMN_PREFIX": NAME},
    "native:renamelayer": {"NAME": NAME},
    "native:renametablefield": {"NEW_NAME": NAME},
    "native:savefeatures": {"LAYER_NAME": NAME, "DATASOURCE_OPTIONS": GDAL_ARGS, "LAYER_OPTIONS": GDAL_ARGS},
    "native:serviceareafromlayer": {"VALUE_FORWARD": NAME, "VALUE_BACKWARD": NAME, "VALUE_BOTH": NAME},
    "native:serviceareafrompoint": {"VALUE_FORWARD": NAME, "VALUE_BACKWARD": NAME, "VALUE_BOTH": NAME},
    "native:setlayerencoding": {"ENCODING": NAME},
    "native:setprojectvariable": {"NAME": NAME, "VALUE": NAME},
    "native:shortestpathlayertopoint": {"VALUE_FORWARD": NAME, "VALUE_BACKWARD": NAME, "VALUE_BOTH": NAME},
    "native:shortestpathpointtolayer": {"VALUE_FORWARD": NAME, "VALUE_BACKWARD": NAME, "VALUE_BOTH": NAME},
    "native:shortestpathpointtopoint": {"VALUE_FORWARD": NAME, "VALUE_BACKWARD": NAME, "VALUE_BOTH": NAME},
    "native:spatialiteexecutesql": {"SQL": CODE},
    "native:spatialiteexecutesqlregistered": {"SQL": CODE},
    "native:splitfeaturesbycharacter": {"CHAR": NAME},
    "native:stdbscanclustering": {"FIELD_NAME": NAME, "SIZE_FIELD_NAME": NAME},
    "native:stringconcatenation": {"INPUT_1": NAME, "INPUT_2": NAME},
    "native:sumlinelengths": {"LEN_FIELD": NAME, "COUNT_FIELD": NAME},
    "native:symmetricaldifference": {"OVERLAY_FIELDS_PREFIX": NAME},
    "native:tinmeshcreation": {"SOURCE_DATA": UNCHECKED},
    "native:transferannotationsfrommain": {"LAYER_NAME": NAME},
    "native:union": {"OVERLAY_FIELDS_PREFIX": NAME},
    "native:uploadgpsdata": {"DEVICE": UNCHECKED, "PORT": UNCHECKED},
    "native:writevectortiles_mbtiles": {"LAYERS": UNCHECKED, "META_NAME": NAME, "META_DESCRIPTION": NAME, "META_ATTRIBUTION": NAME, "META_VERSION": NAME, "META_TYPE": NAME, "META_CENTER": NAME},
    "native:writevectortiles_xyz": {"XYZ_TEMPLATE": UNCHECKED, "LAYERS": UNCHECKED},
    "native:zonalhistogram": {"COLUMN_PREFIX": NAME},
    "native:zonalstatistics": {"COLUMN_PREFIX": NAME},
    "native:zonalstatisticsfb": {"COLUMN_PREFIX": NAME},
    "qgis:executesql": {"INPUT_UID_FIELD": NAME, "INPUT_GEOMETRY_FIELD": NAME},
    "qgis:idwinterpolation": {"INTERPOLATION_DATA": UNCHECKED},
    "qgis:importintopostgis": {"GEOMETRY_COLUMN": NAME, "ENCODING": NAME},
    "qgis:importintospatialite": {"TABLENAME": NAME, "GEOMETRY_COLUMN": NAME, "ENCODING": NAME},
    "qgis:postgisexecuteandloadsql": {"SQL": CODE, "ID_FIELD": NAME, "GEOMETRY_FIELD": NAME},
    "qgis:rastercalculator": {"EXPRESSION": MAP_ALGEBRA},
    "qgis:selectbyattribute": {"VALUE": NAME},
    "qgis:tininterpolation": {"INTERPOLATION_DATA": UNCHECKED},
}


def refusal(algorithm_id: str, provider_id: str) -> str | None:
    """The sentence that says why an algorithm is not offered, or None when it is."""
    why = REFUSED.get(algorithm_id) or REFUSED_PROVIDERS.get(provider_id)
    if why is None:
        return None
    return f"{algorithm_id} is not offered by this plugin: {why}."


def listed_id(alg: Any) -> str:
    """The id the lists name `alg` by. QGIS after 3.22 moved algorithms from its Python provider to C++ and kept
    the old id as an alias (qgis:basicstatisticsforfields runs native:basicstatisticsforfields in 3.40): such an
    algorithm is judged by its 3.22 entry, neither unknown nor missed by the checks that name it."""
    current = alg.id()
    provider, _, name = current.partition(":")
    former = f"qgis:{name}"
    if provider != "native" or is_listed(current) or not is_listed(former):
        return current
    if current not in _ALIASES:  # the registry is asked once an id, not at each of a call's checks
        from qgis.core import QgsApplication

        found = QgsApplication.processingRegistry().algorithmById(former)
        if found is None:  # Processing not loaded yet: asked again next time
            return current
        _ALIASES[current] = former if found.id() == current else current
    return _ALIASES[current]


_ALIASES: dict[str, str] = {}  # native id -> the listed id it answers to (itself when the old id is not its alias)


def is_listed(algorithm_id: str) -> bool:
    return algorithm_id in DATA_ONLY or algorithm_id in TEXT_ROLES


def role_of(algorithm_id: str, name: str, kind: str) -> str:
    """The role of one (non-destination) parameter of a listed algorithm; UNCHECKED when nobody judged it."""
    named = TEXT_ROLES.get(algorithm_id, {}).get(name)
    if named is not None:
        return named
    if kind in TYPE_ROLES:
        return TYPE_ROLES[kind]
    return DATA if kind in DATA_TYPES else UNCHECKED
