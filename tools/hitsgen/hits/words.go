package hits

// Vocabularies of the text columns. The real hits is Russian web traffic
// (Yandex.Metrica, 2013), obfuscated: titles and search phrases are mostly
// Cyrillic, URLs Latin with transliterated Russian words. These lists are
// this package's own; their sizes are powers of two, so that a phrase or
// a path is a number written in base len(list) and distinct numbers give
// distinct strings.

// cyrWords make search phrases and titles (128 words).
var cyrWords = [128]string{
	"смотреть", "онлайн", "бесплатно", "скачать", "фильм", "фильмы", "сериал", "игры",
	"купить", "цена", "отзывы", "фото", "видео", "погода", "новости", "москва",
	"россия", "карта", "как", "что", "где", "для", "в", "на",
	"и", "с", "по", "без", "регистрации", "торрент", "музыка", "песни",
	"слушать", "текст", "рецепт", "рецепты", "дети", "мама", "школа", "работа",
	"вакансии", "квартира", "квартиры", "продажа", "аренда", "снять", "дом", "дача",
	"авто", "машина", "запчасти", "шины", "диски", "ремонт", "сервис", "магазин",
	"интернет", "одежда", "обувь", "платья", "юбки", "брюки", "сумки", "часы",
	"телефон", "планшет", "ноутбук", "айфон", "самсунг", "нокиа", "драйвер", "программа",
	"книга", "читать", "кино", "мультфильмы", "2013", "2012", "года", "лето",
	"июль", "отдых", "туры", "отели", "море", "сочи", "крым", "турция",
	"египет", "билеты", "поезд", "самолет", "банк", "кредит", "ипотека", "вклад",
	"курс", "доллара", "евро", "рубль", "здоровье", "лечение", "симптомы", "врач",
	"больница", "аптека", "красота", "прически", "маникюр", "макияж", "диета", "похудеть",
	"спорт", "футбол", "хоккей", "чемпионат", "результаты", "гороскоп", "сонник", "знакомства",
	"любовь", "свадьба", "подарки", "цветы", "торт", "салаты", "блюда", "своими",
}

// latWords make URL paths and domains (128 words).
var latWords = [128]string{
	"news", "video", "auto", "search", "catalog", "forum", "photo", "page",
	"index", "item", "product", "detail", "list", "view", "show", "user",
	"profile", "blog", "post", "article", "games", "music", "kino", "film",
	"serial", "online", "moscow", "spb", "kazan", "omsk", "sochi", "region",
	"city", "doma", "kvartira", "rabota", "vakansii", "market", "shop", "cart",
	"order", "price", "sale", "sklad", "kupit", "prodazha", "arenda", "avto",
	"moto", "sport", "futbol", "hokkei", "pogoda", "karta", "map", "mail",
	"inbox", "login", "reg", "help", "faq", "about", "contacts", "tag",
	"tags", "cat", "category", "section", "rubric", "archive", "ajax", "api",
	"img", "static", "lenta", "smotret", "besplatno", "skachat", "igry", "recepty",
	"zdorovie", "deti", "mama", "krasota", "moda", "odezhda", "obuv", "tehnika",
	"telefony", "noutbuki", "tv", "radio", "kniga", "biblioteka", "school", "edu",
	"travel", "tury", "oteli", "bilety", "avia", "zhd", "bank", "kredit",
	"ipoteka", "strahovka", "yurist", "remont", "stroika", "dacha", "sad", "zoo",
	"sobaki", "koshki", "fishing", "ohota", "cars", "passenger", "trucks", "goods",
	"board", "doska", "obyavleniya", "uslugi", "firms", "afisha", "concert", "teatr",
}

// syllables make site names (64 syllables: a name is a counter's number
// in base 64, so every counter has its own).
var syllables = [64]string{
	"ka", "li", "mo", "ra", "ve", "to", "ni", "sa", "po", "de", "ru", "ba", "zo", "vi", "ko", "le",
	"ma", "ne", "pi", "go", "tu", "da", "fi", "sho", "che", "zhi", "ya", "yu", "la", "me", "no", "ri",
	"ta", "vo", "bu", "gi", "mi", "ze", "pa", "lo", "ro", "su", "ti", "va", "do", "bo", "ki", "mu",
	"na", "pe", "se", "te", "vu", "dy", "ky", "ly", "my", "ny", "py", "ry", "sy", "ty", "vy", "zy",
}

// zones are top-level domains of the sites, most of them Russian.
var zones = weightedOf([]string{".ru", ".com", ".ua", ".net", ".su", ".org", ".by", ".kz"},
	[]float64{70, 10, 6, 5, 3, 3, 2, 1})

// titleTails end some titles, as sites append their name.
var titleTails = []string{
	" - Яндекс", " - Яндекс.Видео", " - IRR.ru", " - Шоубиз", " (Россия) - Яндекс",
	" — Мой Крым", " / Главная", " - Форум", " - Отзывы", " - Новости",
}

// searchEngines are the referers of search traffic, by SearchEngineID.
var searchEngineHosts = map[int]string{
	2: "yandex.ru/yandsearch?text=",
	3: "go.mail.ru/search?q=",
	1: "www.google.ru/search?q=",
	4: "nova.rambler.ru/search?query=",
	5: "www.bing.com/search?q=",
}

// advEngineHosts are the referers of advertising traffic.
var advEngineHosts = []string{"an.yandex.ru/count/", "direct.yandex.ru/click/", "ad.adriver.ru/cgi-bin/click.cgi?sid=", "begun.ru/click/"}

// mobileModels beyond the head of the distribution (models in use in 2013).
var mobileModels = []string{
	"GT-S5830", "GT-I9100", "GT-I9300", "GT-N7100", "GT-S5360", "GT-P5100", "GT-P3100", "GT-I8160",
	"Lumia 920", "Lumia 800", "Lumia 710", "HTC One", "HTC Sensation", "HTC Desire", "Sony Xperia Z",
	"LT26i", "LT22i", "MT27i", "ST25i", "C6603", "Nexus 4", "Nexus 7", "Galaxy Nexus", "Kindle Fire",
	"U8650", "U8860", "G300", "Y300", "X5", "E72", "C5-00", "N9", "5800 XpressMusic", "6300", "2700c",
	"C3-00", "Asha 305", "Asha 200", "Optimus L5", "Optimus L7", "P970", "E610", "Xperia mini",
	"MB525", "ME525", "RAZR", "W910i", "K800i", "SGH-E250", "SGH-D900",
}

// hitColors are HitColor's values.
var hitColors = weightedOf([]string{"5", "6", "E", "D", "F", "4", "1"}, []float64{55, 30, 8, 4, 1.5, 1, 0.5})

// pageCharsets are PageCharset's values, one a site.
var pageCharsets = weightedOf([]string{"windows-1251", "utf-8", "windows", "koi8-r", "windows-1251;charset", "utf-8;charset", ""},
	[]float64{52, 36, 4, 2, 2, 2, 2})

// codeVersions are CodeVersion's values, one a site.
var codeVersions = weightedOf([]int{1601, 1, 1594, 1596, 1100, 1568, 1572, 1590},
	[]float64{30, 30, 10, 10, 8, 6, 3, 3})

// socialNetworks and the rest are the rare marketing columns' values.
var (
	socialNetworks = []string{"vkontakte", "odnoklassniki", "facebook", "twitter", "moimir", "livejournal"}
	socialActions  = []string{"like", "share", "post", "comment", "subscribe"}
	currencies     = []string{"RUB", "USD", "EUR", "UAH", "KZT"}
	openstatNames  = []string{"direct.yandex.ru", "begun.ru", "adwords.google", "market.yandex.ru", "vk.com"}
	utmSources     = []string{"yandex", "google", "vk", "mail", "facebook", "direct", "begun", "email"}
	utmMediums     = []string{"cpc", "banner", "email", "social", "referral", "cpm"}
	flashMinor2s   = weightedOf([]string{"0", "700", "700.224", "800", "1000", "202", "600", "115"}, []float64{40, 25, 12, 8, 6, 4, 3, 2})
	userAgentMinor = weightedOf([]string{"0", "nA", "D\uFFFD", "5", "1", "2", "3", "4", "8", "9", "10", "11", "1a", "Ve"},
		[]float64{30, 12, 15, 8, 6, 5, 5, 4, 3, 3, 3, 2, 2, 2})
)

func weightedOf[T any](values []T, weights []float64) weighted[T] {
	return newWeighted(values, weights)
}
